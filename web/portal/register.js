// Register a device: find the registration by the challenge code the app shows, confirm it for a
// terminal, and show the back-office code the tester types into the app.
"use strict";

const page = {
  findMessage: document.getElementById("find-message"),
  confirmMessage: document.getElementById("confirm-message"),
  waiting: document.getElementById("waiting"),
  confirmed: document.getElementById("confirmed"),
  merchant: document.getElementById("merchant"),
  terminal: document.getElementById("terminal"),
  merchants: [],
  code: null,
  countdown: null,
};

/// What to tell a tester for each refusal of "Find registration"; the host's message otherwise.
const findMessages = {
  invalid_request: "A code has 8 letters and digits, as the app shows it (for example ABCD-EF12).",
  challenge_not_found: "No registration with this code on this host. Check the code the app shows.",
  challenge_expired: "This code expired (a code lives 10 minutes). Start the registration again in the app.",
  challenge_used: "This code was already confirmed. Type the back-office code you were given into the app, or start again.",
};

function showTerminals() {
  const merchant = page.merchants.find((m) => m.merchantId === page.merchant.value);
  const terminals = merchant?.terminals ?? [];
  page.terminal.replaceChildren(...terminals.map((terminal) => {
    const option = document.createElement("option");
    option.value = terminal.terminalId;
    const locked = !terminal.registered && terminal.tokenLockedUntil;
    // A terminal that cannot take this registration says why.
    option.textContent = terminal.terminalId
      + (terminal.registered ? ` (registered to ${terminal.deviceId})`
        : locked ? " (locked by a registration token)"
        : !terminal.registerOptions.includes("portal") ? " (registers by registration token only)" : " (free)");
    option.disabled = terminal.registered || Boolean(locked) || !terminal.registerOptions.includes("portal");
    return option;
  }));
  const free = terminals.find((terminal) => !terminal.registered && !terminal.tokenLockedUntil && terminal.registerOptions.includes("portal"));
  if (free) page.terminal.value = free.terminalId;
}

async function find(event) {
  event.preventDefault();
  Portal.say(page.findMessage, "");
  page.waiting.hidden = true;
  page.confirmed.hidden = true;
  const typed = document.getElementById("code").value.trim();
  try {
    const registration = await Portal.api("GET", Portal.regionPath(`/registrations/${encodeURIComponent(typed)}`));
    const { merchants } = await Portal.api("GET", Portal.regionPath("/merchants"));
    page.code = registration.challengeCode;
    page.merchants = merchants;
    document.getElementById("device-model").textContent = registration.deviceModel;
    document.getElementById("device-id").textContent = registration.deviceId;
    document.getElementById("device-region").textContent = Portal.region();
    document.getElementById("began").textContent = Portal.time(registration.createdAt);
    document.getElementById("challenge-expires").textContent = Portal.time(registration.expiresAt);
    page.merchant.replaceChildren(...merchants.map((merchant) => {
      const option = document.createElement("option");
      option.value = merchant.merchantId;
      option.textContent = `${merchant.merchantId} · ${merchant.name}`;
      return option;
    }));
    const withFree = merchants.find((merchant) => merchant.terminals.some((terminal) => !terminal.registered && !terminal.tokenLockedUntil));
    if (withFree) page.merchant.value = withFree.merchantId;
    showTerminals();
    page.waiting.hidden = false;
  } catch (failure) {
    Portal.say(page.findMessage, findMessages[failure.code] ?? failure.message, "error");
  }
}

/// Counts down to `expiresAt` on the host's clock, which testers move ahead of this browser's:
/// the host's time is read once and its lead kept.
async function showTimeLeft(expiresAt) {
  clearInterval(page.countdown);
  const left = document.getElementById("backoffice-left");
  let lead = 0;
  try {
    const clock = await Portal.api("GET", Portal.regionPath("/clock"));
    lead = new Date(clock.now) - Date.now();
  } catch {
    // Without the host's time, this browser's is the best guess.
  }
  const tick = () => {
    const seconds = Math.max(0, Math.round((new Date(expiresAt) - (Date.now() + lead)) / 1000));
    left.textContent = seconds > 0 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s left` : "expired";
  };
  tick();
  page.countdown = setInterval(tick, 1000);
}

async function confirm(event) {
  event.preventDefault();
  Portal.say(page.confirmMessage, "");
  try {
    const body = page.terminal.value ? { terminalId: page.terminal.value } : { merchantId: page.merchant.value };
    const confirmation = await Portal.api("POST", Portal.regionPath(`/registrations/${encodeURIComponent(page.code)}/confirm`), body);
    document.getElementById("backoffice-code").textContent = confirmation.backofficeCode;
    document.getElementById("confirmed-terminal").textContent = confirmation.terminalId;
    document.getElementById("backoffice-expires").textContent = Portal.time(confirmation.expiresAt);
    await showTimeLeft(confirmation.expiresAt);
    page.waiting.hidden = true;
    page.confirmed.hidden = false;
  } catch (failure) {
    Portal.say(page.confirmMessage, failure.message, "error");
  }
}

document.getElementById("copy").addEventListener("click", async () => {
  const code = document.getElementById("backoffice-code").textContent;
  try {
    await navigator.clipboard.writeText(code);
    document.getElementById("copy").textContent = "Copied";
  } catch {
    getSelection().selectAllChildren(document.getElementById("backoffice-code"));
  }
});
document.getElementById("find").addEventListener("submit", find);
document.getElementById("confirm").addEventListener("submit", confirm);
page.merchant.addEventListener("change", showTerminals);
Portal.setUpRegionPicker().catch((failure) => Portal.say(page.findMessage, `Cannot list the hosts: ${failure.message}`, "error"));
