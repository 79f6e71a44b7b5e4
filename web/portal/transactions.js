// Transactions: every transaction of the picked region, filtered and paged, each with all the
// fields of the seed's TransactionDetail, its receipt and a CSV export of what the filter shows.
"use strict";

const statuses = ["CLEARED", "PIN_REQUESTED", "NEW", "REJECTED", "REFUNDED", "TIMEOUT", "USER_CANCELLED", "ERROR",
  "TERMINAL_DECLINED", "ONGOING", "AUTHORIZED", "DECLINED", "CANCELLED", "DCC_REQUIRED"];
const message = document.getElementById("message");
const state = { page: 1, size: 20 };

for (const status of statuses) {
  const option = document.createElement("option");
  option.textContent = status;
  document.getElementById("status").append(option);
}

/// The filter as query parameters: empty fields are left out, dates become a whole UTC day range.
function query(withPage) {
  const form = new FormData(document.getElementById("filter"));
  const params = new URLSearchParams();
  for (const name of ["merchantId", "terminalId", "status", "type", "paymentMethod"]) {
    const value = String(form.get(name) ?? "").trim();
    if (value) params.set(name, value);
  }
  if (form.get("from")) params.set("dateFrom", `${form.get("from")}T00:00:00Z`);
  if (form.get("to")) params.set("dateTo", `${form.get("to")}T23:59:59.999Z`);
  if (withPage) {
    params.set("page", String(state.page));
    params.set("itemsPerPage", String(state.size));
  }
  return params.toString();
}

const typeNames = { AUTH: "Sale", REFUND: "Refund" };

/// A term and its description in a `<dl>`; `value` is text or an element (a link).
function entry(list, term, value, field) {
  if (value === null || value === undefined || value === "") return;
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  if (field) dd.dataset.field = field;
  dd.append(value);
  list.append(dt, dd);
}

/// What the customer paid with: the card's brand and masked number, or the wallet's brand.
function paidWith(transaction) {
  if (transaction.paymentMethod === "CARD") return `${transaction.cardType ?? ""} ${transaction.cardNumber ?? ""}`.trim() || "—";
  return `${transaction.cardType ?? transaction.paymentMethod} (${transaction.paymentMethod === "BLIK" ? "BLIK" : "QR wallet"})`;
}

function showDetail(transaction, receiptUrl) {
  const type = typeNames[transaction.transactionType] ?? transaction.transactionType;
  document.getElementById("detail-title").textContent =
    `${type} · ${Portal.money(transaction.transactionAmount, transaction.currency)} · ${transaction.transactionStatus}`;
  document.getElementById("detail-id").textContent = transaction.transactionId;
  const summary = document.getElementById("detail-summary");
  summary.replaceChildren();
  entry(summary, "Status", transaction.transactionStatus, "status");
  entry(summary, "Amount", Portal.money(transaction.transactionAmount, transaction.currency), "amount");
  if (transaction.tipAmount) entry(summary, "Of which tip", Portal.money(transaction.tipAmount, transaction.currency), "tip");
  if (transaction.dccStatus) {
    entry(summary, "Currency conversion", `${transaction.dccStatus}: ${Portal.money(transaction.dccAmount, transaction.dccCurrency)} at ${transaction.dccExchangeRate} (markup ${transaction.dccMarkup} %)`, "dcc");
  }
  entry(summary, "Paid with", paidWith(transaction), "paidWith");
  entry(summary, "Date", Portal.time(transaction.transactionDate), "date");
  entry(summary, "Terminal", `${transaction.terminalId} (merchant ${transaction.merchantId})`, "terminal");
  entry(summary, "Authorisation", transaction.authId || null, "authId");
  if (transaction.responseCode) entry(summary, "Response", `${transaction.responseCode} ${transaction.responseMsg ?? ""}`.trim(), "response");
  entry(summary, "Reference", transaction.externalID, "reference");
  if (transaction.refundedTransactionId) {
    entry(summary, "Refund of", Portal.actionLink(transaction.refundedTransactionId, () => open(transaction.refundedTransactionId)), "refundOf");
  }
  if (transaction.refundedDate) entry(summary, "Refunded", Portal.time(transaction.refundedDate), "refunded");
  entry(summary, "Can still be reversed", transaction.cancellable ? "yes, within 30 minutes of the sale" : null, "cancellable");

  const fields = document.getElementById("detail-fields");
  fields.replaceChildren();
  for (const [name, value] of Object.entries(transaction)) {
    entry(fields, name, value === null ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value), name);
  }
  timeline(transaction).catch(() => {});
  const receipt = document.getElementById("receipt");
  receipt.hidden = !receiptUrl;
  if (receiptUrl) receipt.href = receiptUrl;
  const dialog = document.getElementById("detail");
  if (!dialog.open) dialog.showModal();
}

/// What happened to the transaction, in order: when it reached its status, when it was refunded,
/// and each webhook its merchant was sent about it (written, delivered or not, after how many attempts).
async function timeline(transaction) {
  const list = document.getElementById("detail-timeline");
  const steps = [[transaction.transactionDate, `${typeNames[transaction.transactionType] ?? transaction.transactionType} ${transaction.transactionStatus}`]];
  if (transaction.refundedDate) steps.push([transaction.refundedDate, "Refunded"]);
  const draw = () => list.replaceChildren(...steps
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
    .map(([at, text]) => { const item = document.createElement("li"); item.textContent = `${Portal.time(at)} · ${text}`; return item; }));
  draw();
  const { events } = await Portal.api("GET", Portal.regionPath(`/webhooks/events?merchantId=${encodeURIComponent(transaction.merchantId)}&limit=500`));
  for (const event of events.filter((event) => event.transactionId === transaction.transactionId)) {
    const attempts = `${event.attempts} attempt${event.attempts === 1 ? "" : "s"}`;
    const outcome = event.state === "delivered" ? `delivered ${Portal.time(event.deliveredAt)}` : event.state;
    steps.push([event.createdAt, `Webhook ${event.type} to ${event.url}: ${outcome} (${attempts})`]);
  }
  draw();
}

async function open(transactionId) {
  try {
    const found = await Portal.api("GET", Portal.regionPath(`/transactions/${encodeURIComponent(transactionId)}`));
    showDetail(found.transaction, Portal.regionPath(`/receipts/${encodeURIComponent(found.receiptId)}`));
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}

async function search() {
  Portal.say(message, "");
  document.getElementById("csv").href = Portal.regionPath(`/transactions.csv?${query(false)}`);
  const body = document.querySelector("#transactions tbody");
  try {
    const found = await Portal.api("GET", Portal.regionPath(`/transactions?${query(true)}`));
    body.replaceChildren();
    for (const transaction of found.transactions) {
      const row = body.insertRow();
      row.dataset.transaction = transaction.transactionId;
      Portal.cell(row, Portal.time(transaction.transactionDate));
      Portal.cell(row, transaction.terminalId);
      Portal.cell(row, typeNames[transaction.transactionType] ?? transaction.transactionType);
      Portal.cell(row, transaction.paymentMethod, "method");
      Portal.cell(row, transaction.transactionStatus, "status");
      Portal.cell(row, Portal.money(transaction.transactionAmount, transaction.currency), "amount");
      Portal.cell(row, paidWith(transaction), "paid-with");
      Portal.cell(row, transaction.externalID ?? "—", "reference");
      row.insertCell().append(Portal.button("Details", () => open(transaction.transactionId)));
    }
    if (found.transactions.length === 0) Portal.say(message, "No transaction matches.", "");
    document.getElementById("page").textContent = `Page ${state.page}`;
    document.getElementById("previous").disabled = state.page <= 1;
    document.getElementById("next").disabled = !found.hasMore;
  } catch (failure) {
    body.replaceChildren();
    Portal.say(message, failure.message, "error");
  }
}

async function loadMerchants() {
  const picker = document.getElementById("merchant");
  try {
    const { merchants } = await Portal.api("GET", Portal.regionPath("/merchants"));
    picker.replaceChildren(new Option("All", ""), ...merchants.map((m) => new Option(`${m.merchantId} · ${m.name}`, m.merchantId)));
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}

document.getElementById("filter").addEventListener("submit", (event) => {
  event.preventDefault();
  state.page = 1;
  search();
});
document.getElementById("close-detail").addEventListener("click", () => document.getElementById("detail").close());
document.getElementById("previous").addEventListener("click", () => { state.page -= 1; search(); });
document.getElementById("next").addEventListener("click", () => { state.page += 1; search(); });
// A link to one transaction (`?transaction=ID`, from the Webhooks page) opens its detail.
const linked = new URLSearchParams(location.search).get("transaction");
Portal.setUpRegionPicker(async () => {
  state.page = 1;
  await loadMerchants();
  await search();
  if (linked) await open(linked);
})
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
