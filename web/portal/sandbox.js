// Sandbox: the picked host's clock (advance it by a preset or any number of seconds) and its reset.
"use strict";

const message = document.getElementById("message");

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
    Portal.say(message, `Moved ${Portal.region()}'s clock ${duration(seconds)} ahead.`, "ok");
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}

for (const button of document.querySelectorAll("button[data-seconds]")) {
  button.addEventListener("click", () => advance(Number(button.dataset.seconds)));
}
document.getElementById("advance").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = document.getElementById("seconds").value.trim();
  const seconds = Number(text);
  if (text === "" || !Number.isFinite(seconds)) {
    Portal.say(message, "Seconds must be a number, such as 600.", "error");
    return;
  }
  advance(seconds);
});
document.getElementById("reset").addEventListener("click", async () => {
  if (!confirm(`Reset ${Portal.region()}? Every device, transaction, token, webhook and mail of it goes.`)) return;
  try {
    await Portal.api("POST", Portal.regionPath("/reset"));
    Portal.say(message, `${Portal.region()} is back to its fixtures.`, "ok");
    await load();
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
});

Portal.setUpRegionPicker(() => { Portal.say(message, ""); load(); })
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
