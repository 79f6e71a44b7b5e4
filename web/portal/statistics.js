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

/// One bar per group, its height the amount, the count above it and the group's label under it;
/// the caption says the units. Each bar's title has the label, count and amount.
function chart(groups, container, currency) {
  const step = 72, width = Math.max(320, groups.length * step + 16), height = 200, top = 20, bottom = 40;
  const highest = Math.max(1, ...groups.map((group) => group.amount));
  const svg = element("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
  svg.append(element("title", {}, `Approved amount in ${currency || "minor units"} per group; the number above each bar is its count of sales`));
  groups.forEach((group, index) => {
    const barHeight = Math.round(((height - top - bottom) * group.amount) / highest);
    const x = index * step + 16;
    const bar = element("rect", { x, y: height - bottom - barHeight, width: 40, height: barHeight, class: "bar" });
    bar.append(element("title", {}, `${group.label}: ${group.count} sales, ${Portal.money(group.amount, currency)}`));
    svg.append(bar, element("text", { x: x + 20, y: height - bottom + 14, "text-anchor": "middle", class: "label" }, group.short));
    svg.append(element("text", { x: x + 20, y: height - bottom - barHeight - 4, "text-anchor": "middle", class: "label" }, String(group.count)));
  });
  const caption = document.createElement("p");
  caption.className = "muted";
  caption.textContent = `Bar height: approved amount in ${currency || "minor units"} (highest ${Portal.money(highest, currency)}); number above a bar: its sales.`;
  container.replaceChildren(svg, caption);
}

/// A day (`2026-12-06`) as a short date (`6 Dec`); a brand as it is.
function shortLabel(label) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(label)) return label;
  return new Date(`${label}T00:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
}

/// The groups of one statistics answer, their items summed (a day or brand may span several items).
function groups(statistics) {
  return statistics.map((group) => ({
    label: group.description,
    short: shortLabel(group.description),
    count: group.items.reduce((sum, item) => sum + item.count, 0),
    amount: group.items.reduce((sum, item) => sum + item.amount, 0),
  }));
}

function table(rows, body, currency) {
  body.replaceChildren();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.dataset.group = row.label;
    Portal.cell(tr, row.label);
    Portal.cell(tr, String(row.count), "amount");
    Portal.cell(tr, Portal.money(row.amount, currency), "amount");
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
      chart(rows, document.getElementById(`${type}-chart`), Portal.currency());
      table(rows, document.querySelector(`#${type} tbody`), Portal.currency());
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
