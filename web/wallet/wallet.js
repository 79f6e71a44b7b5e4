// What the wallet's pages share: calls to the wallet's own API, and how amounts and outcomes read.
"use strict";

const Wallet = {
  /// Calls the wallet's JSON API; a refusal throws an Error carrying the envelope's code.
  async api(method, path, body) {
    // The page says it is busy while a call is out (screen readers, and the browser tests, wait for it).
    Wallet.busy = (Wallet.busy ?? 0) + 1;
    document.body.setAttribute("aria-busy", "true");
    try {
      const init = { method, headers: {} };
      if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
      const response = await fetch(path, init);
      if (response.status === 204) return null;
      const json = await response.json().catch(() => null);
      if (!response.ok) {
        const failure = new Error(json?.error?.message ?? `The wallet answered ${response.status}.`);
        failure.code = json?.error?.code ?? "http_" + response.status;
        throw failure;
      }
      return json;
    } finally {
      Wallet.busy -= 1;
      if (Wallet.busy === 0) document.body.removeAttribute("aria-busy");
    }
  },

  /// 1250 EUR → "€12.50", with the currency's own number of decimals.
  money(amount, currency) {
    const format = new Intl.NumberFormat("en", { style: "currency", currency });
    const digits = format.resolvedOptions().maximumFractionDigits;
    return format.format(amount / 10 ** digits);
  },

  /// The decline reasons of the pay page, in the words it shows them.
  reasons: {
    insufficient_funds: "insufficient funds",
    limit_exceeded: "limit exceeded",
    declined_by_customer: "declined by the customer",
    declined_by_provider: "declined by the wallet provider",
    system_error: "system error",
  },

  /// What became of an order, in words; null while it is still open.
  outcome(order) {
    switch (order.status) {
      case "paid": return "Paid";
      case "declined": return "Declined: " + (Wallet.reasons[order.reason] ?? order.reason ?? "no reason given");
      case "expired": return "Expired: the order was let go";
      case "closed": return order.reason === "expired"
        ? "The merchant closed this order: it timed out"
        : "The merchant closed this order";
      case "refused": return "Refused, nothing was charged: " + (order.reason ?? "the merchant's system no longer takes this order");
      case "paying": return "Paying… waiting for the merchant's system";
      default: return null;
    }
  },

  /// The wallet's clock minus this browser's, so a countdown follows the (possibly moved) sandbox clock.
  async clockOffset() {
    const started = Date.now();
    const clock = await Wallet.api("GET", "/_sandbox/clock");
    return Date.parse(clock.now) + 500 - (started + Date.now()) / 2;
  },
};
