// Lists what the inbox received, refreshing every two seconds: filtered, each delivery's headers
// and body one click away, and the inbox emptied on demand.
"use strict";

const message = document.getElementById("message");
let deliveries = [];

function say(text, kind) {
  message.textContent = text ?? "";
  message.hidden = !text;
  message.className = kind ?? "";
}

/// The deliveries the filter keeps.
function filtered() {
  const words = document.getElementById("search").value.trim().toLowerCase();
  const verdict = document.getElementById("verdict").value;
  return deliveries.filter((delivery) => {
    if (verdict === "valid" && delivery.signature !== "valid") return false;
    if (verdict === "invalid" && delivery.signature === "valid") return false;
    if (!words) return true;
    return [delivery.region, delivery.merchantId, delivery.eventId, delivery.type].some((value) => (value ?? "").toLowerCase().includes(words));
  });
}

/// When a delivery arrived, in the tester's time zone, named.
function received(delivery) {
  const date = new Date(delivery.receivedAt);
  return Number.isNaN(date.getTime()) ? delivery.receivedAt : date.toLocaleString(undefined, { hour12: false, timeZoneName: "short" });
}

function open(delivery) {
  document.getElementById("delivery-title").textContent = `${delivery.type ?? "Webhook"} for ${delivery.merchantId} (${delivery.region})`;
  const verdict = document.getElementById("delivery-verdict");
  verdict.textContent = `Signature: ${delivery.signature}. Received ${received(delivery)}.`;
  verdict.className = delivery.signature === "valid" ? "up" : "down";
  const headers = document.getElementById("delivery-headers");
  headers.replaceChildren();
  for (const [name, value] of Object.entries(delivery.headers ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = value;
    headers.append(dt, dd);
  }
  let body = delivery.body ?? "";
  try { body = JSON.stringify(JSON.parse(body), null, 2); } catch { /* shown as it came */ }
  document.getElementById("delivery-body").textContent = body;
  const dialog = document.getElementById("delivery");
  if (!dialog.open) dialog.showModal();
}

function draw() {
  const body = document.querySelector("#events tbody");
  body.replaceChildren();
  const shown = filtered();
  if (shown.length === 0) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = 7;
    cell.textContent = deliveries.length === 0 ? "No webhooks yet: make a payment on a host." : "No webhook matches the filter.";
    return;
  }
  for (const delivery of shown) {
    const row = body.insertRow();
    row.dataset.event = delivery.eventId ?? "";
    for (const value of [received(delivery), delivery.region, delivery.merchantId, delivery.eventId, delivery.type, delivery.signature]) {
      row.insertCell().textContent = value ?? "";
    }
    row.lastChild.className = delivery.signature === "valid" ? "up" : "down";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Headers and body";
    button.addEventListener("click", () => open(delivery));
    row.insertCell().append(button);
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/events");
    ({ events: deliveries } = await response.json());
    draw();
  } catch (failure) {
    deliveries = [];
    draw();
    say(`Cannot read the inbox: ${failure.message}`, "error");
  }
}

document.getElementById("search").addEventListener("input", draw);
document.getElementById("verdict").addEventListener("change", draw);
document.getElementById("close-delivery").addEventListener("click", () => document.getElementById("delivery").close());
document.getElementById("clear").addEventListener("click", async () => {
  if (!confirm("Empty the inbox? Every webhook it received is forgotten.")) return;
  // A change of state declares JSON (the sandbox refuses it otherwise, so that no other site can send it).
  const response = await fetch("/api/events", { method: "DELETE", headers: { "Content-Type": "application/json" } });
  if (response.ok) {
    say("The inbox is empty.", "ok");
  } else {
    say(`The inbox answered ${response.status}.`, "error");
  }
  await refresh();
});

refresh();
setInterval(refresh, 2000);
