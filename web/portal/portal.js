// Lists the environment hosts this portal knows and asks each for its catalogue entry.
"use strict";

async function loadEnvironments() {
  const body = document.querySelector("#environments tbody");
  const error = document.getElementById("error");
  try {
    const response = await fetch("/api/environments");
    if (!response.ok) throw new Error(`portal answered ${response.status}`);
    const { environments } = await response.json();
    const regions = Object.keys(environments);
    body.replaceChildren();
    if (regions.length === 0) {
      const row = body.insertRow();
      const cell = row.insertCell();
      cell.colSpan = 5;
      cell.textContent = "No environment hosts are configured (start the portal with `sandbox up`).";
      return;
    }
    for (const region of regions) {
      const url = environments[region];
      const row = body.insertRow();
      row.dataset.region = region;
      row.insertCell().textContent = region;
      const link = document.createElement("a");
      link.href = `${url}/v1/environment`;
      link.textContent = url;
      row.insertCell().appendChild(link);
      const flavour = row.insertCell();
      const currency = row.insertCell();
      const health = row.insertCell();
      health.textContent = "…";
      fetch(`${url}/v1/environment`)
        .then((answer) => answer.ok ? answer.json() : Promise.reject(new Error(String(answer.status))))
        .then((environment) => {
          flavour.textContent = environment.flavour;
          currency.textContent = environment.currency;
          health.textContent = "up";
          health.className = "up";
        })
        .catch(() => {
          health.textContent = "down";
          health.className = "down";
        });
    }
  } catch (failure) {
    error.hidden = false;
    error.textContent = `Cannot list the environments: ${failure.message}`;
  }
}

loadEnvironments();
