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

function amount(minor, currency) {
  const exponent = currency?.exponent ?? 2;
  return `${(minor / 10 ** exponent).toFixed(exponent)} ${currency?.code ?? ""}`.trim();
}

function showDetail(transaction, receiptUrl) {
  document.getElementById("detail-id").textContent = transaction.transactionId;
  const fields = document.getElementById("detail-fields");
  fields.replaceChildren();
  for (const [name, value] of Object.entries(transaction)) {
    const term = document.createElement("dt");
    term.textContent = name;
    const description = document.createElement("dd");
    description.dataset.field = name;
    description.textContent = value === null ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value);
    fields.append(term, description);
  }
  const receipt = document.getElementById("receipt");
  receipt.hidden = !receiptUrl;
  if (receiptUrl) receipt.href = receiptUrl;
  document.getElementById("detail").hidden = false;
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
  document.getElementById("detail").hidden = true;
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
      Portal.cell(row, transaction.transactionType);
      Portal.cell(row, transaction.transactionStatus, "status");
      Portal.cell(row, amount(transaction.transactionAmount, transaction.currency));
      Portal.cell(row, transaction.cardNumber);
      row.insertCell().append(Portal.actionLink(transaction.externalID ?? transaction.transactionId.slice(0, 8), () => open(transaction.transactionId)));
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
document.getElementById("previous").addEventListener("click", () => { state.page -= 1; search(); });
document.getElementById("next").addEventListener("click", () => { state.page += 1; search(); });
Portal.setUpRegionPicker(async () => { state.page = 1; await loadMerchants(); search(); })
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
