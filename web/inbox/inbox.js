// Lists what the inbox received, refreshing every two seconds.
"use strict";

async function refresh() {
  const body = document.querySelector("#events tbody");
  try {
    const response = await fetch("/api/events");
    const { events } = await response.json();
    body.replaceChildren();
    if (events.length === 0) {
      const cell = body.insertRow().insertCell();
      cell.colSpan = 6;
      cell.textContent = "No webhooks yet: make a payment on a host.";
      return;
    }
    for (const event of events) {
      const row = body.insertRow();
      row.dataset.event = event.eventId ?? "";
      for (const value of [event.receivedAt, event.region, event.merchantId, event.eventId, event.type, event.signature]) {
        row.insertCell().textContent = value ?? "";
      }
      row.lastChild.className = event.signature === "valid" ? "up" : "down";
    }
  } catch (failure) {
    body.replaceChildren();
    body.insertRow().insertCell().textContent = `Cannot read the inbox: ${failure.message}`;
  }
}

refresh();
setInterval(refresh, 2000);
