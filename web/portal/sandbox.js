// Sandbox: the whole sandbox's snapshots and reset; the picked host's clock (advance it by a preset
// or any number of seconds), its reset, faults and request journal.
"use strict";

// Each section says what its controls did just under them; `message` is for the page as a whole.
const message = document.getElementById("message");
const keyMessage = document.getElementById("key-message");
const clockMessage = document.getElementById("clock-message");
const resetMessage = document.getElementById("reset-message");
const faultMessage = document.getElementById("fault-message");
const journalMessage = document.getElementById("journal-message");

function duration(seconds) {
  const units = [["day", 86400], ["h", 3600], ["min", 60], ["s", 1]];
  let left = Math.round(seconds);
  if (left === 0) return "0 s (real time)";
  const parts = [];
  for (const [name, size] of units) {
    const count = Math.floor(left / size);
    if (count > 0) parts.push(`${count} ${name}${name === "day" && count > 1 ? "s" : ""}`);
    left -= count * size;
  }
  return parts.join(" ");
}

function show(clock) {
  document.getElementById("clock-now").textContent = Portal.time(clock.now);
  document.getElementById("clock-skew").textContent = duration(clock.skewSeconds);
  Portal.noteClock();
}

async function load() {
  try {
    show(await Portal.api("GET", Portal.regionPath("/clock")));
  } catch (failure) {
    Portal.say(message, `Cannot read the clock: ${failure.message}`, "error");
  }
}

async function advance(seconds) {
  try {
    show(await Portal.api("POST", Portal.regionPath("/clock"), { advanceSeconds: seconds }));
    Portal.say(clockMessage, `Moved ${Portal.region()}'s clock ${duration(seconds)} ahead.`, "ok");
  } catch (failure) {
    Portal.say(clockMessage, failure.message, "error");
  }
}

const keyField = document.getElementById("control-key");
keyField.value = sessionStorage.getItem("portal.controlKey") ?? "";
document.getElementById("control-key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const key = keyField.value.trim();
  if (key) sessionStorage.setItem("portal.controlKey", key); else sessionStorage.removeItem("portal.controlKey");
  Portal.say(keyMessage, key ? "The control key goes with every call of this tab's pages." : "No control key: calls are sent without one.", "ok");
  // What the page could not read without the key, it reads now.
  load();
  loadFaults().catch((f) => Portal.say(faultMessage, f.message, "error"));
  loadJournal().catch((f) => Portal.say(journalMessage, f.message, "error"));
  loadSnapshots().catch((f) => Portal.say(wholeMessage, f.message, "error"));
});

document.getElementById("real-time").addEventListener("click", async () => {
  try {
    show(await Portal.api("POST", Portal.regionPath("/clock"), { realTime: true }));
    Portal.say(clockMessage, `${Portal.region()}'s clock is back to real time.`, "ok");
  } catch (failure) {
    Portal.say(clockMessage, failure.message, "error");
  }
});

for (const button of document.querySelectorAll("button[data-seconds]")) {
  button.addEventListener("click", () => advance(Number(button.dataset.seconds)));
}
document.getElementById("advance").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = document.getElementById("seconds").value.trim();
  const seconds = Number(text);
  if (text === "" || !Number.isFinite(seconds)) {
    Portal.say(clockMessage, "Seconds must be a number, such as 600.", "error");
    return;
  }
  advance(seconds);
});
document.getElementById("reset").addEventListener("click", async () => {
  if (!confirm(`Reset ${Portal.region()}? Every device, transaction, token, webhook and mail of it goes.`)) return;
  try {
    await Portal.api("POST", Portal.regionPath("/reset"));
    Portal.say(resetMessage, `${Portal.region()} is back to its fixtures.`, "ok");
    await reloadRegion();
  } catch (failure) {
    Portal.say(resetMessage, failure.message, "error");
  }
});

// The whole sandbox: snapshots of every service, and one reset. Feedback shows beside the controls.
const wholeMessage = document.getElementById("whole-message");
const snapshotPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

async function loadSnapshots() {
  const body = document.querySelector("#snapshots tbody");
  const { services, snapshots } = await Portal.api("GET", "/api/sandbox/snapshots");
  body.replaceChildren();
  for (const snapshot of snapshots) {
    const row = body.insertRow();
    row.dataset.snapshot = snapshot.name;
    Portal.cell(row, snapshot.name);
    Portal.cell(row, Portal.time(snapshot.savedAt));
    Portal.cell(row, `${snapshot.services} of ${services}`);
    Portal.cell(row, `${(snapshot.bytes / 1e6).toFixed(1)} MB`);
    row.insertCell().append(
      Portal.button("Restore", () => restoreSnapshot(snapshot.name)), " ",
      Portal.button("Delete", () => deleteSnapshot(snapshot.name)));
  }
}

// What a restore or reset changed on this page is read again.
async function reloadRegion() {
  await load();
  await loadFaults().catch(() => {});
}

async function restoreSnapshot(name) {
  try {
    const { services } = await Portal.api("POST", `/api/sandbox/snapshots/${encodeURIComponent(name)}/restore`);
    Portal.say(wholeMessage, `Restored snapshot ${name} on ${services} services.`, "ok");
    await reloadRegion();
  } catch (failure) {
    Portal.say(wholeMessage, failure.message, "error");
  }
}

async function deleteSnapshot(name) {
  try {
    await Portal.api("DELETE", `/api/sandbox/snapshots/${encodeURIComponent(name)}`);
    await loadSnapshots();
    Portal.say(wholeMessage, `Deleted snapshot ${name}.`, "ok");
  } catch (failure) {
    Portal.say(wholeMessage, failure.message, "error");
  }
}

document.getElementById("snapshot-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = document.getElementById("snapshot-name").value.trim();
  if (!snapshotPattern.test(name)) {
    Portal.say(wholeMessage, "A snapshot name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.", "error");
    return;
  }
  try {
    const { services } = await Portal.api("POST", "/api/sandbox/snapshots", { name });
    await loadSnapshots();
    Portal.say(wholeMessage, `Saved snapshot ${name} of ${services} services.`, "ok");
  } catch (failure) {
    Portal.say(wholeMessage, failure.message, "error");
  }
});

document.getElementById("reset-all").addEventListener("click", async () => {
  if (!confirm("Reset everything? Every region, the wallet and the webhook inbox go back to their fixtures.")) return;
  try {
    await Portal.api("POST", "/api/sandbox/reset");
    Portal.say(wholeMessage, "Every region, the wallet and the webhook inbox are back to their fixtures.", "ok");
    await reloadRegion();
  } catch (failure) {
    Portal.say(wholeMessage, failure.message, "error");
  }
});

// Faults.
function describeFault(fault) {
  const match = [fault.match.method, fault.match.path, fault.match.surface && `surface ${fault.match.surface}`].filter(Boolean).join(" ") || "every request";
  const takes = fault.count ? `next ${fault.count}` : fault.share ? `${Math.round(fault.share * 100)} %` : `until ${Portal.time(new Date(fault.endsAtMilliseconds).toISOString())}`;
  const does = fault.action === "status" ? `answers ${fault.status}` : fault.action === "delay" ? `waits ${fault.delayMilliseconds} ms` : "drops the answer";
  return [match, takes, does];
}

async function loadFaults() {
  const body = document.querySelector("#faults tbody");
  const { faults } = await Portal.api("GET", Portal.regionPath("/faults"));
  body.replaceChildren();
  for (const fault of faults) {
    const row = body.insertRow();
    row.dataset.fault = fault.id;
    Portal.cell(row, fault.id);
    for (const text of describeFault(fault)) Portal.cell(row, text);
    Portal.cell(row, String(fault.applied));
    const remove = Portal.button("Remove", async () => {
      try {
        await Portal.api("DELETE", Portal.regionPath(`/faults/${encodeURIComponent(fault.id)}`));
        Portal.say(faultMessage, `Fault ${fault.id} removed.`, "ok");
      } catch (failure) {
        Portal.say(faultMessage, failure.message, "error");
      }
      await loadFaults().catch((f) => Portal.say(faultMessage, f.message, "error"));
    });
    row.insertCell().append(remove);
  }
}

document.getElementById("fault").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const fault = { match: {}, action: form.get("action") };
  for (const name of ["method", "path", "surface"]) if (form.get(name)) fault.match[name] = String(form.get(name)).trim();
  fault[form.get("trigger")] = Number(form.get("amount"));
  if (fault.action === "status") fault.status = Number(form.get("status"));
  if (fault.action === "delay") fault.delayMilliseconds = Number(form.get("delay"));
  try {
    const added = await Portal.api("POST", Portal.regionPath("/faults"), fault);
    Portal.say(faultMessage, `Fault ${added.id} set.`, "ok");
    await loadFaults();
  } catch (failure) {
    Portal.say(faultMessage, failure.message, "error");
  }
});
document.getElementById("clear-faults").addEventListener("click", async () => {
  try {
    await Portal.api("DELETE", Portal.regionPath("/faults"));
    Portal.say(faultMessage, "Every fault of the region is cleared.", "ok");
  } catch (failure) {
    Portal.say(faultMessage, failure.message, "error");
  }
  await loadFaults();
});

// The request journal and the faults' counts, refreshed every two seconds while the page is open.
async function openRequest(id) {
  const entry = await Portal.api("GET", Portal.regionPath(`/requests/${encodeURIComponent(id)}`));
  document.getElementById("request-id").textContent = `${entry.method} ${entry.path} → ${entry.status}`;
  document.getElementById("request-body").textContent = entry.requestBody ?? "(not kept: tick Keep bodies first)";
  document.getElementById("response-body").textContent = entry.responseBody ?? "(not kept)";
  const dialog = document.getElementById("request");
  if (!dialog.open) dialog.showModal();
}
document.getElementById("close-request").addEventListener("click", () => document.getElementById("request").close());

/// How many of the newest entries the journal shows: 100 more at each "Show 100 more", up to the 1,000 kept.
let journalLimit = 100;

async function loadJournal() {
  const params = new URLSearchParams({ limit: String(journalLimit) });
  const surface = document.getElementById("journal-surface").value;
  if (surface) params.set("surface", surface);
  if (document.getElementById("journal-failed").checked) params.set("failed", "true");
  const path = document.getElementById("journal-path").value.trim();
  if (path) params.set("path", path);
  const journal = await Portal.api("GET", Portal.regionPath(`/requests?${params}`));
  document.getElementById("journal-bodies").checked = journal.capturesBodies;
  const body = document.querySelector("#journal tbody");
  body.replaceChildren();
  for (const entry of journal.requests) {
    const row = body.insertRow();
    row.dataset.request = entry.requestId;
    Portal.cell(row, Portal.time(entry.time));
    Portal.cell(row, entry.method);
    row.insertCell().append(Portal.actionLink(entry.path, () => openRequest(entry.requestId).catch((f) => Portal.say(journalMessage, f.message, "error"))));
    Portal.cell(row, entry.dropped ? `${entry.status} (dropped)` : String(entry.status), "status");
    Portal.cell(row, Number(entry.milliseconds).toFixed(1));
    Portal.cell(row, entry.subject ?? "");
    Portal.cell(row, entry.errorCode ?? "", "code");
    Portal.cell(row, entry.fault ?? "", "fault");
  }
  document.getElementById("journal-count").textContent =
    `${journal.requests.length} newest request${journal.requests.length === 1 ? "" : "s"} shown.`;
  document.getElementById("more-journal").hidden = journal.requests.length < journalLimit || journalLimit >= 1000;
}

for (const id of ["journal-surface", "journal-failed", "journal-path"]) {
  document.getElementById(id).addEventListener("change", () => loadJournal().catch((f) => Portal.say(journalMessage, f.message, "error")));
}
document.getElementById("journal-filter").addEventListener("submit", (event) => {
  event.preventDefault();
  loadJournal().catch((f) => Portal.say(journalMessage, f.message, "error"));
});
document.getElementById("more-journal").addEventListener("click", () => {
  journalLimit = Math.min(1000, journalLimit + 100);
  loadJournal().catch((f) => Portal.say(journalMessage, f.message, "error"));
});
document.getElementById("journal-bodies").addEventListener("change", async (event) => {
  try {
    await Portal.api("PUT", Portal.regionPath("/requests/capture"), { bodies: event.target.checked });
    Portal.say(journalMessage, event.target.checked ? "New entries keep their bodies (card data and secrets masked)." : "New entries keep no bodies.", "ok");
  } catch (failure) {
    Portal.say(journalMessage, failure.message, "error");
  }
});
document.getElementById("clear-journal").addEventListener("click", async () => {
  try {
    await Portal.api("DELETE", Portal.regionPath("/requests"));
    Portal.say(journalMessage, "The journal is empty.", "ok");
  } catch (failure) {
    Portal.say(journalMessage, failure.message, "error");
  }
  await loadJournal().catch(() => {});
});
setInterval(() => {
  if (document.hidden) return;
  loadJournal().catch(() => {});
  loadFaults().catch(() => {});
}, 2000);

Portal.setUpRegionPicker(() => {
  Portal.say(message, "");
  load();
  loadFaults().catch((f) => Portal.say(faultMessage, f.message, "error"));
  loadJournal().catch((f) => Portal.say(journalMessage, f.message, "error"));
})
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
loadSnapshots().catch((failure) => Portal.say(wholeMessage, `Cannot list the snapshots: ${failure.message}`, "error"));
