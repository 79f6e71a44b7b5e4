// Statistics: the picked range per day and per card brand, as bar charts (inline SVG) with the numbers.
"use strict";

const message = document.getElementById("message");
const svgNS = "http://www.w3.org/2000/svg";

function element(name, attributes, text) {
  const node = document.createElementNS(svgNS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/// One bar per group, its height the amount; each bar says its label, count and amount.
function chart(groups, container) {
  const width = Math.max(320, groups.length * 48), height = 180, top = 20, bottom = 40;
  const highest = Math.max(1, ...groups.map((group) => group.amount));
  const svg = element("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
  svg.append(element("title", {}, `${groups.length} groups`));
  groups.forEach((group, index) => {
    const barHeight = Math.round(((height - top - bottom) * group.amount) / highest);
    const x = index * 48 + 8;
    const bar = element("rect", { x, y: height - bottom - barHeight, width: 32, height: barHeight, class: "bar" });
    bar.append(element("title", {}, `${group.label}: ${group.count} for ${group.amount}`));
    svg.append(bar, element("text", { x: x + 16, y: height - bottom + 14, "text-anchor": "middle", class: "label" }, group.label.slice(-5)));
    svg.append(element("text", { x: x + 16, y: height - bottom - barHeight - 4, "text-anchor": "middle", class: "label" }, String(group.count)));
  });
  container.replaceChildren(svg);
}

/// The groups of one statistics answer, their items summed (a day or brand may span several items).
function groups(statistics) {
  return statistics.map((group) => ({
    label: group.description,
    count: group.items.reduce((sum, item) => sum + item.count, 0),
    amount: group.items.reduce((sum, item) => sum + item.amount, 0),
  }));
}

function table(rows, body) {
  body.replaceChildren();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.dataset.group = row.label;
    Portal.cell(tr, row.label);
    Portal.cell(tr, String(row.count));
    Portal.cell(tr, String(row.amount));
  }
}

async function show() {
  Portal.say(message, "");
  const form = new FormData(document.getElementById("filter"));
  const params = new URLSearchParams({ fromDate: `${form.get("from")}T00:00:00Z`, toDate: `${form.get("to")}T23:59:59.999Z` });
  for (const name of ["merchantId", "terminalId"]) {
    const value = String(form.get(name) ?? "").trim();
    if (value) params.set(name, value);
  }
  try {
    for (const type of ["daily", "brand"]) {
      params.set("statisticsType", type);
      const { statistics } = await Portal.api("GET", Portal.regionPath(`/statistics?${params}`));
      const rows = groups(statistics);
      chart(rows, document.getElementById(`${type}-chart`));
      table(rows, document.querySelector(`#${type} tbody`));
    }
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}

async function loadMerchants() {
  try {
    const { merchants } = await Portal.api("GET", Portal.regionPath("/merchants"));
    document.getElementById("merchant").replaceChildren(
      new Option("All", ""), ...merchants.map((m) => new Option(`${m.merchantId} · ${m.name}`, m.merchantId)));
  } catch (failure) {
    Portal.say(message, failure.message, "error");
  }
}

const today = new Date();
document.getElementById("to").value = today.toISOString().slice(0, 10);
document.getElementById("from").value = new Date(today - 6 * 86400000).toISOString().slice(0, 10);
document.getElementById("filter").addEventListener("submit", (event) => { event.preventDefault(); show(); });
Portal.setUpRegionPicker(async () => { await loadMerchants(); show(); })
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
