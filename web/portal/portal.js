// Lists the environment hosts this portal drives, as the portal sees them (server to server).
"use strict";

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text ?? "";
  if (className) td.className = className;
  return td;
}

async function loadEnvironments() {
  const body = document.querySelector("#environments tbody");
  const error = document.getElementById("error");
  try {
    const response = await fetch("/api/environments");
    if (!response.ok) throw new Error(`portal answered ${response.status}`);
    const { environments } = await response.json();
    body.replaceChildren();
    if (environments.length === 0) {
      const row = body.insertRow();
      cell(row, "No environment hosts are configured (start the portal with `sandbox up`).").colSpan = 5;
      return;
    }
    for (const environment of environments) {
      const row = body.insertRow();
      row.dataset.region = environment.region;
      cell(row, environment.region).title = environment.name ?? "";
      const link = document.createElement("a");
      link.href = `/api/environments/${encodeURIComponent(environment.region)}`;
      link.textContent = environment.url;
      row.insertCell().appendChild(link);
      cell(row, environment.flavour);
      cell(row, environment.currency);
      cell(row, environment.status, environment.status);
    }
  } catch (failure) {
    error.hidden = false;
    error.textContent = `Cannot list the environments: ${failure.message}`;
  }
}

loadEnvironments();
