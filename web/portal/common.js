// What every portal page shares: the navigation, the region picker and calls to the portal's API.
"use strict";

/// The pages, in the order the navigation shows them.
const portalPages = [
  ["/", "Environments"], ["/register.html", "Register a device"], ["/terminals.html", "Terminals"],
  ["/transactions.html", "Transactions"], ["/statistics.html", "Statistics"], ["/webhooks.html", "Webhooks"],
  ["/mailbox.html", "Mailbox"], ["/sandbox.html", "Sandbox"],
];

for (const nav of document.querySelectorAll('nav[aria-label="Portal pages"]')) {
  for (const [href, title] of portalPages) {
    const link = document.createElement("a");
    link.href = href;
    link.textContent = title;
    if (href === location.pathname || (href === "/" && location.pathname === "/index.html")) link.setAttribute("aria-current", "page");
    nav.append(link);
  }
}

const Portal = {
  /// `table` in a box that scrolls sideways, so a wide table never makes the page wider than the window.
  scroll(table) {
    if (table.parentElement?.classList.contains("scroll")) return table.parentElement;
    const box = document.createElement("div");
    box.className = "scroll";
    table.replaceWith(box);
    box.append(table);
    return box;
  },

  /// The region the tester picked (kept across pages), or the first host's.
  region() {
    const picker = document.getElementById("region");
    return picker?.value || localStorage.getItem("portal.region") || "";
  },

  /// Calls the portal's JSON API; a refusal throws an Error carrying the envelope's code and field.
  async api(method, path, body) {
    // The page says it is busy while a call is out (screen readers, and the browser tests, wait for it).
    Portal.busy = (Portal.busy ?? 0) + 1;
    document.body.setAttribute("aria-busy", "true");
    try {
      return await Portal.call(method, path, body);
    } finally {
      Portal.busy -= 1;
      if (Portal.busy === 0) document.body.removeAttribute("aria-busy");
    }
  },

  async call(method, path, body) {
    const init = { method, headers: {} };
    // The sandbox control key typed on the Sandbox page, for a sandbox that listens beyond loopback.
    const controlKey = sessionStorage.getItem("portal.controlKey");
    if (controlKey) init.headers["X-Sandbox-Control-Key"] = controlKey;
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    if (response.status === 204) return null;
    const text = await response.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON: reported below */ }
    if (!response.ok) {
      const failure = new Error(json?.error?.code === "control_key_required"
        ? `${controlKey ? "The control key is wrong" : "This needs the sandbox control key"} (printed when the sandbox started, and controlKey in endpoints.json): type it under Control key on the Sandbox page.`
        : json?.error?.message ?? `The portal answered ${response.status}.`);
      failure.code = json?.error?.code ?? "http_" + response.status;
      failure.field = json?.error?.field;
      throw failure;
    }
    return json;
  },

  /// The picked region's currency code (`EUR`), once the region picker is filled.
  currency() {
    return Portal.environments?.find((environment) => environment.region === Portal.region())?.currency ?? "";
  },

  /// `/api/regions/EU/...` for the picked region.
  regionPath(rest) {
    return `/api/regions/${encodeURIComponent(Portal.region())}${rest}`;
  },

  /// Fills the region picker from the hosts the portal drives and calls `onChange` with each pick.
  async setUpRegionPicker(onChange) {
    const picker = document.getElementById("region");
    const { environments } = await Portal.api("GET", "/api/environments");
    Portal.environments = environments;
    picker.replaceChildren(...environments.map((environment) => {
      const option = document.createElement("option");
      option.value = environment.region;
      option.textContent = `${environment.region}${environment.name ? " · " + environment.name : ""}${environment.status === "up" ? "" : " (down)"}`;
      return option;
    }));
    const wanted = new URLSearchParams(location.search).get("region") || localStorage.getItem("portal.region");
    if (environments.some((environment) => environment.region === wanted)) picker.value = wanted;
    picker.addEventListener("change", () => {
      localStorage.setItem("portal.region", picker.value);
      Portal.noteClock();
      onChange?.(picker.value);
    });
    localStorage.setItem("portal.region", picker.value);
    Portal.noteClock();
    onChange?.(picker.value);
  },

  /// Says under the navigation when the picked region's clock is not real time: what the page
  /// shows (dates, expiries, sessions) is on that clock.
  async noteClock() {
    let note = document.getElementById("clock-note");
    if (!note) {
      note = document.createElement("p");
      note.id = "clock-note";
      note.className = "muted";
      note.hidden = true;
      document.querySelector("header")?.append(note);
    }
    try {
      const clock = await Portal.call("GET", Portal.regionPath("/clock"));
      const skew = Math.round(clock.skewSeconds ?? 0);
      note.hidden = skew === 0;
      if (skew !== 0) {
        const hours = Math.abs(skew) / 3600;
        const amount = hours >= 48 ? `${Math.round(hours / 24)} days` : hours >= 1 ? `${hours.toFixed(1)} h` : `${Math.round(Math.abs(skew) / 60)} min`;
        note.textContent = `${Portal.region()}'s clock runs ${amount} ${skew > 0 ? "ahead of" : "behind"} real time (it is ${Portal.time(clock.now)} there): the times on this page are on that clock.`;
      }
    } catch {
      note.hidden = true;
    }
  },

  /// Shows a message in an element (`role="status"` or `role="alert"`), or hides it when empty.
  say(element, text, kind) {
    element.textContent = text ?? "";
    element.hidden = !text;
    element.className = kind ?? "";
  },

  /// A wire time as the tester's local time, with seconds and the time zone's name.
  time(text) {
    if (!text) return "—";
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? text : date.toLocaleString(undefined, { hour12: false, timeZoneName: "short" });
  },

  /// An amount in minor units as its currency writes it (`12,50 €`, `$12.50`, `¥1,250`):
  /// `currency` is a code (`EUR`) or the wire's `{code, exponent}`.
  money(minor, currency) {
    const code = typeof currency === "string" ? currency : currency?.code;
    if (minor === null || minor === undefined || Number.isNaN(Number(minor))) return "—";
    if (!code) return String(minor);
    let format;
    try {
      format = new Intl.NumberFormat(undefined, { style: "currency", currency: code });
    } catch {
      return `${minor} ${code}`;
    }
    const exponent = typeof currency === "object" && Number.isInteger(currency?.exponent)
      ? currency.exponent : format.resolvedOptions().maximumFractionDigits;
    return new Intl.NumberFormat(undefined, { style: "currency", currency: code, minimumFractionDigits: exponent, maximumFractionDigits: exponent })
      .format(Number(minor) / 10 ** exponent);
  },

  /// A link that runs `action` instead of leaving the page (it opens something on this page).
  actionLink(text, action) {
    const link = document.createElement("a");
    link.href = "#";
    link.textContent = text;
    link.addEventListener("click", (event) => { event.preventDefault(); action(); });
    return link;
  },

  /// A button that runs `action` when pressed.
  button(text, action, enabled = true) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.disabled = !enabled;
    button.addEventListener("click", action);
    return button;
  },

  cell(row, text, className) {
    const td = row.insertCell();
    td.textContent = text ?? "";
    if (className) td.className = className;
    // On a phone a row shows as a card, each cell beside its column's name.
    const header = row.closest("table")?.tHead?.rows[0]?.cells[td.cellIndex];
    if (header?.textContent) td.dataset.label = header.textContent;
    return td;
  },
};

// Every table of a page scrolls inside its own box.
for (const table of document.querySelectorAll("main table")) Portal.scroll(table);
