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

  /// `/api/regions/EU/...` for the picked region.
  regionPath(rest) {
    return `/api/regions/${encodeURIComponent(Portal.region())}${rest}`;
  },

  /// Fills the region picker from the hosts the portal drives and calls `onChange` with each pick.
  async setUpRegionPicker(onChange) {
    const picker = document.getElementById("region");
    const { environments } = await Portal.api("GET", "/api/environments");
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
      onChange?.(picker.value);
    });
    localStorage.setItem("portal.region", picker.value);
    onChange?.(picker.value);
  },

  /// Shows a message in an element (`role="status"` or `role="alert"`), or hides it when empty.
  say(element, text, kind) {
    element.textContent = text ?? "";
    element.hidden = !text;
    element.className = kind ?? "";
  },

  /// A wire time as the tester's local time, with seconds.
  time(text) {
    if (!text) return "—";
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? text : date.toLocaleString(undefined, { hour12: false });
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
    return td;
  },
};
