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
    const { environments, wallet, inbox } = await response.json();
    for (const [id, url] of [["wallet-link", wallet], ["bank-link", wallet && `${wallet}/bank.html`], ["inbox-link", inbox]]) {
      const link = document.getElementById(id);
      if (url) link.href = url; else link.closest("li").hidden = true;
    }
    body.replaceChildren();
    if (environments.length === 0) {
      const row = body.insertRow();
      cell(row, "No environment hosts are configured (start the portal with `sandbox up`).").colSpan = 6;
      return;
    }
    for (const environment of environments) {
      const row = body.insertRow();
      row.dataset.region = environment.region;
      cell(row, environment.region).title = environment.name ?? "";
      cell(row, environment.url);
      cell(row, environment.flavour);
      cell(row, environment.currency);
      cell(row, environment.status, environment.status);
      // The portal's pages for this region (the picker on each page starts on it).
      const pages = row.insertCell();
      for (const [page, title] of [["terminals", "Terminals"], ["transactions", "Transactions"], ["sandbox", "Sandbox"]]) {
        const link = document.createElement("a");
        link.href = `/${page}.html?region=${encodeURIComponent(environment.region)}`;
        link.textContent = title;
        pages.append(link, " ");
      }
    }
  } catch (failure) {
    error.hidden = false;
    error.textContent = `Cannot list the environments: ${failure.message}`;
  }
}

loadEnvironments();
