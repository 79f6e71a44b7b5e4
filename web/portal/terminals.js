// Terminals: every merchant of the picked region with its terminals, their state and the back
// office's actions on each.
"use strict";

const message = document.getElementById("message");
/// What the last action on each terminal did, shown in its row (the list is drawn again after each).
const feedback = new Map();

function stateOf(terminal) {
  if (!terminal.registered) {
    return terminal.tokenLockedUntil ? `free, locked by a registration token until ${Portal.time(terminal.tokenLockedUntil)}` : "free";
  }
  return `registered to ${terminal.deviceId} (${terminal.deviceModel ?? "unknown model"}) since ${Portal.time(terminal.registeredAt)}`
    + (terminal.locked ? ", secure code locked" : "");
}

function actionButton(label, terminal, action, enabled) {
  return Portal.button(label, async () => {
    try {
      await Portal.api("POST", Portal.regionPath(`/terminals/${encodeURIComponent(terminal.terminalId)}/${action}`));
      feedback.set(terminal.terminalId, [`${label}: done for ${terminal.terminalId}.`, "ok"]);
    } catch (failure) {
      feedback.set(terminal.terminalId, [`${label} ${terminal.terminalId}: ${failure.message}`, "error"]);
    }
    await load();
  }, enabled);
}

const token = { section: document.getElementById("token"), message: document.getElementById("token-message"), value: null };

/// Shows an issued (or refreshed) token: as text, as a QR code, with its expiry.
function showToken(issued) {
  token.value = issued.registrationToken;
  document.getElementById("token-terminal").textContent = issued.terminalId;
  document.getElementById("token-text").textContent = issued.registrationToken;
  document.getElementById("token-qr").src = "data:image/svg+xml;base64," + btoa(issued.qrSvg);
  document.getElementById("token-expires").textContent = Portal.time(issued.expiresAt);
  if (!token.section.open) token.section.showModal();
}

function tokenButton(terminal, merchant) {
  return Portal.button("Create registration token", async () => {
    Portal.say(token.message, "");
    try {
      showToken(await Portal.api("POST", Portal.regionPath("/registration-tokens"), { terminalId: terminal.terminalId }));
      document.getElementById("token-email").value = merchant.email ?? "";
      feedback.delete(terminal.terminalId);
    } catch (failure) {
      feedback.set(terminal.terminalId, [`Create registration token for ${terminal.terminalId}: ${failure.message}`, "error"]);
    }
    // The row says at once that the terminal now waits for its token.
    await load();
  }, !terminal.registered && terminal.registerOptions.includes("registrationCode"));
}

document.getElementById("refresh").addEventListener("click", async () => {
  try {
    showToken(await Portal.api("POST", Portal.regionPath(`/registration-tokens/${encodeURIComponent(token.value)}/refresh`)));
    Portal.say(token.message, "Refreshed: the same token, valid for longer.", "ok");
  } catch (failure) {
    Portal.say(token.message, failure.message, "error");
  }
});

document.getElementById("revoke").addEventListener("click", async () => {
  try {
    await Portal.api("DELETE", Portal.regionPath(`/registration-tokens/${encodeURIComponent(token.value)}`));
    const terminal = document.getElementById("token-terminal").textContent;
    token.section.close();
    feedback.set(terminal, [`Revoked: no device can register with that token, and ${terminal} no longer waits for it.`, "ok"]);
    await load();
  } catch (failure) {
    Portal.say(token.message, failure.message, "error");
  }
});

document.getElementById("token-actions").addEventListener("submit", async (event) => {
  event.preventDefault();
  const email = document.getElementById("token-email").value.trim();
  try {
    await Portal.api("POST", Portal.regionPath(`/registration-tokens/${encodeURIComponent(token.value)}/email`), { email });
    Portal.say(token.message, `Sent to ${email}: see the Mailbox.`, "ok");
  } catch (failure) {
    Portal.say(token.message, failure.message, "error");
  }
});

async function load() {
  const container = document.getElementById("merchants");
  try {
    const { merchants } = await Portal.api("GET", Portal.regionPath("/merchants"));
    container.replaceChildren(...merchants.map((merchant) => {
      const section = document.createElement("section");
      const title = document.createElement("h2");
      title.textContent = `${merchant.merchantId} · ${merchant.name}`;
      const table = document.createElement("table");
      table.createTHead().innerHTML = "<tr><th>Terminal</th><th>State</th><th>Wrong secure codes</th><th>Last login</th>"
        + "<th>Session ends</th><th>Certificates expire</th><th>Actions</th></tr>";
      const body = table.createTBody();
      for (const terminal of merchant.terminals) {
        const row = body.insertRow();
        row.dataset.terminal = terminal.terminalId;
        Portal.cell(row, terminal.terminalId);
        Portal.cell(row, stateOf(terminal), "state");
        Portal.cell(row, String(terminal.failedAttempts ?? 0));
        Portal.cell(row, Portal.time(terminal.lastLoginAt));
        Portal.cell(row, terminal.sessionEndsAt ? Portal.time(terminal.sessionEndsAt) : "no session", "session");
        Portal.cell(row, Portal.time(terminal.certificatesExpireAt), "certificates");
        const actions = row.insertCell();
        actions.append(
          actionButton("Unregister", terminal, "unregister", terminal.registered),
          actionButton("Unlock secure code", terminal, "unlock", terminal.registered && terminal.locked),
          tokenButton(terminal, merchant));
        if (!terminal.registered && !terminal.registerOptions.includes("registrationCode")) {
          actions.title = "This terminal registers by challenge code only (its registerOptions have no registrationCode).";
        }
        const said = feedback.get(terminal.terminalId);
        if (said) {
          const note = document.createElement("p");
          note.setAttribute("role", "status");
          note.className = `feedback ${said[1]}`;
          note.textContent = said[0];
          actions.append(note);
        }
      }
      section.append(title, Portal.scroll(table));
      return section;
    }));
  } catch (failure) {
    container.replaceChildren();
    Portal.say(message, `Cannot list the terminals: ${failure.message}`, "error");
  }
}

document.getElementById("close-token").addEventListener("click", () => token.section.close());
Portal.setUpRegionPicker(() => { Portal.say(message, ""); feedback.clear(); if (token.section.open) token.section.close(); load(); })
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
