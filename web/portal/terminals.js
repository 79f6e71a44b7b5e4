// Terminals: every merchant of the picked region with its terminals, their state and the back
// office's actions on each.
"use strict";

const message = document.getElementById("message");

function stateOf(terminal) {
  if (!terminal.registered) return "free";
  return `registered to ${terminal.deviceId} (${terminal.deviceModel ?? "unknown model"})` + (terminal.locked ? ", secure code locked" : "");
}

function actionButton(label, terminal, action, enabled) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.disabled = !enabled;
  button.addEventListener("click", async () => {
    try {
      await Portal.api("POST", Portal.regionPath(`/terminals/${encodeURIComponent(terminal.terminalId)}/${action}`));
      Portal.say(message, `${label}: done for ${terminal.terminalId}.`, "ok");
      await load();
    } catch (failure) {
      Portal.say(message, `${label} ${terminal.terminalId}: ${failure.message}`, "error");
    }
  });
  return button;
}

async function load() {
  const container = document.getElementById("merchants");
  try {
    const { merchants } = await Portal.api("GET", Portal.regionPath("/merchants"));
    container.replaceChildren(...merchants.map((merchant) => {
      const section = document.createElement("section");
      const title = document.createElement("h2");
      title.textContent = `${merchant.merchantId} · ${merchant.name}`;
      const table = document.createElement("table");
      table.createTHead().innerHTML = "<tr><th>Terminal</th><th>State</th><th>Wrong secure codes</th><th>Last login</th><th>Actions</th></tr>";
      const body = table.createTBody();
      for (const terminal of merchant.terminals) {
        const row = body.insertRow();
        row.dataset.terminal = terminal.terminalId;
        Portal.cell(row, terminal.terminalId);
        Portal.cell(row, stateOf(terminal), "state");
        Portal.cell(row, String(terminal.failedAttempts ?? 0));
        Portal.cell(row, Portal.time(terminal.lastLoginAt));
        const actions = row.insertCell();
        actions.append(
          actionButton("Unregister", terminal, "unregister", terminal.registered),
          actionButton("Unlock secure code", terminal, "unlock", terminal.registered && terminal.locked));
      }
      section.append(title, table);
      return section;
    }));
  } catch (failure) {
    container.replaceChildren();
    Portal.say(message, `Cannot list the terminals: ${failure.message}`, "error");
  }
}

Portal.setUpRegionPicker(() => { Portal.say(message, ""); load(); })
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
