// Webhooks: a merchant's endpoint, scheme and secret (shown on demand, rotated with an overlap in
// which both secrets sign), the delivery log with every attempt, replay and a test event.
"use strict";

// The log's feedback under its buttons; the endpoint's under its forms.
const message = document.getElementById("message");
const endpointMessage = document.getElementById("endpoint-message");
const page = { settings: null };

function merchant() {
  return document.getElementById("merchant").value;
}

function showSettings(settings) {
  page.settings = settings;
  document.getElementById("url").value = settings.url ?? "";
  document.getElementById("scheme").value = settings.scheme;
  document.getElementById("endpoint-state").textContent = settings.disabled
    ? "Disabled: the endpoint answered 410 Gone. Save to turn it back on."
    : `Delivering to ${settings.url ?? "the sandbox's webhook inbox"}.`;
  document.getElementById("secret").textContent = "••••••••";
  document.getElementById("show-secret").textContent = "Show secret";
  // The MONEI scheme signs with the merchant's API key: a whsec_ secret shown there would not verify.
  const monei = settings.scheme === "monei";
  document.getElementById("monei-key").hidden = !monei;
  document.getElementById("secret-line").hidden = monei;
  document.getElementById("rotate").hidden = monei;
  const previous = document.getElementById("previous-secret");
  previous.hidden = monei || !settings.previousSecret;
  if (settings.previousSecret) {
    document.getElementById("previous").textContent = settings.previousSecret;
    document.getElementById("previous-until").textContent = Portal.time(settings.previousSecretExpiresAt);
  }
}

async function loadSettings() {
  showSettings(await Portal.api("GET", Portal.regionPath(`/merchants/${encodeURIComponent(merchant())}/webhook`)));
}

async function openEvent(id) {
  try {
    const event = await Portal.api("GET", Portal.regionPath(`/webhooks/events/${encodeURIComponent(id)}`));
    document.getElementById("event-id").textContent = `${event.id} · ${event.type}`;
    const body = document.querySelector("#attempts tbody");
    body.replaceChildren();
    for (const attempt of event.log) {
      const row = body.insertRow();
      Portal.cell(row, String(attempt.attempt));
      Portal.cell(row, Portal.time(attempt.at));
      Portal.cell(row, attempt.status === null ? attempt.error ?? "no answer" : String(attempt.status));
      Portal.cell(row, `${Number(attempt.latencyMs).toFixed(1)} ms`);
      Portal.cell(row, attempt.responseExcerpt ?? "");
    }
    let payload = event.payload;
    try { payload = JSON.stringify(JSON.parse(payload), null, 2); } catch { /* shown as sent */ }
    document.getElementById("event-payload").textContent = payload;
    const dialog = document.getElementById("event");
    if (!dialog.open) dialog.showModal();
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}

async function loadEvents() {
  const body = document.querySelector("#events tbody");
  const { events } = await Portal.api("GET", Portal.regionPath(`/webhooks/events?merchantId=${encodeURIComponent(merchant())}&limit=50`));
  body.replaceChildren();
  for (const event of events) {
    const row = body.insertRow();
    row.dataset.event = event.id;
    Portal.cell(row, Portal.time(event.createdAt));
    row.insertCell().append(Portal.actionLink(event.type, () => openEvent(event.id)));
    // The payment it reports, opened on the Transactions page; a sample event's payment is made up and
    // not stored (the host gives it no amount).
    const payment = row.insertCell();
    payment.className = "payment";
    payment.dataset.label = "Payment";
    if (event.transactionId && event.amount) {
      const link = document.createElement("a");
      link.href = `/transactions.html?region=${encodeURIComponent(Portal.region())}&transaction=${encodeURIComponent(event.transactionId)}`;
      link.textContent = event.transactionId;
      payment.append(link);
    } else {
      payment.textContent = event.transactionId ? "sample" : "—";
    }
    Portal.cell(row, event.amount ? Portal.money(event.amount, event.currency) : "—", "amount");
    Portal.cell(row, event.state, "state");
    Portal.cell(row, String(event.attempts));
    const replay = Portal.button("Replay", async () => {
      try {
        await Portal.api("POST", Portal.regionPath(`/webhooks/events/${encodeURIComponent(event.id)}/replay`));
        Portal.say(message, `Replaying ${event.id}.`, "ok");
        await loadEvents();
      } catch (failure) {
        Portal.say(message, failure.message, "error");
      }
    });
    row.insertCell().append(replay);
  }
}

async function loadMerchant() {
  Portal.say(message, "");
  Portal.say(endpointMessage, "");
  try {
    await loadSettings();
    await loadEvents();
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}

document.getElementById("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const url = document.getElementById("url").value.trim();
  try {
    showSettings(await Portal.api("PUT", Portal.regionPath(`/merchants/${encodeURIComponent(merchant())}/webhook`),
      { url: url || null, scheme: document.getElementById("scheme").value }));
    Portal.say(endpointMessage, "Saved.", "ok");
  } catch (failure) {
    Portal.say(endpointMessage, failure.message, "error");
  }
});
document.getElementById("show-secret").addEventListener("click", () => {
  const secret = document.getElementById("secret");
  const hidden = secret.textContent === "••••••••";
  secret.textContent = hidden ? page.settings?.secret ?? "" : "••••••••";
  document.getElementById("show-secret").textContent = hidden ? "Hide secret" : "Show secret";
});
document.getElementById("rotate").addEventListener("submit", async (event) => {
  event.preventDefault();
  const hours = Number(document.getElementById("overlap").value);
  if (!Number.isFinite(hours) || hours < 0) {
    Portal.say(endpointMessage, "The overlap is a number of hours, 0 or more.", "error");
    return;
  }
  try {
    showSettings(await Portal.api("POST", Portal.regionPath(`/merchants/${encodeURIComponent(merchant())}/webhook/rotate-secret`),
      { overlapSeconds: Math.round(hours * 3600) }));
    Portal.say(endpointMessage, "Rotated: deliveries are signed with both secrets until the overlap ends.", "ok");
  } catch (failure) {
    Portal.say(endpointMessage, failure.message, "error");
  }
});
document.getElementById("test").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const sent = await Portal.api("POST", Portal.regionPath("/webhooks/test"),
      { event: document.getElementById("event-type").value, merchantId: merchant() });
    Portal.say(message, `Test event ${sent.eventId} queued.`, "ok");
    await loadEvents();
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
});
document.getElementById("reload").addEventListener("click", () => loadEvents().catch((f) => Portal.say(message, f.message, "error")));
document.getElementById("merchant").addEventListener("change", loadMerchant);
document.getElementById("close-event").addEventListener("click", () => document.getElementById("event").close());
// While a delivery is pending, the log is read again every two seconds: its state follows without a reload.
setInterval(() => {
  const pending = [...document.querySelectorAll("#events td.state")].some((cell) => cell.textContent === "pending");
  if (pending && !document.hidden) loadEvents().catch(() => {});
}, 2000);

Portal.setUpRegionPicker(async () => {
  try {
    const { merchants } = await Portal.api("GET", Portal.regionPath("/merchants"));
    document.getElementById("merchant").replaceChildren(...merchants.map((m) => new Option(`${m.merchantId} · ${m.name}`, m.merchantId)));
    await loadMerchant();
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}).catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
