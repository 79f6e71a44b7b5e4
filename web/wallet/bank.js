// The BLIK bank app (docs/blik.md): one customer's balance, their code with its countdown, and the
// confirmation requests they answer. Everything through the wallet's own API, refreshed every 2 s.
"use strict";

const Bank = {
  $: (id) => document.getElementById(id),
  customers: [],
  code: null,
  offset: 0,
  /// The requests on screen, by order id: one that leaves the list unanswered here is looked up, to say why.
  shown: new Map(),

  /// The decline reasons in the words of a bank.
  reasons: {
    declined_by_customer: "declined by the customer",
    insufficient_funds: "insufficient funds",
    limit_exceeded: "limit exceeded",
    declined_by_provider: "declined by the bank",
    system_error: "system error",
  },

  customerId() { return Bank.$("customer").value; },

  /// Seconds left until `expiresAt` on the wallet's clock.
  left(expiresAt) { return Math.max(0, Math.round((Date.parse(expiresAt) - (Date.now() + Bank.offset)) / 1000)); },

  say(text, kind) {
    Bank.$("outcome").textContent = text;
    Bank.$("outcome").className = kind ?? "";
  },

  /// What became of a request, in words.
  outcome(order) {
    const money = Wallet.money(order.amount, order.currency);
    switch (order.status) {
      case "paid": return [`Approved: ${money} paid to ${order.merchantName}`, "ok"];
      case "paying": return [`Approved: ${money} to ${order.merchantName}, waiting for the merchant's system`, ""];
      case "declined": return ["Declined: " + (Bank.reasons[order.reason] ?? order.reason ?? "no reason given"), "error"];
      case "expired": return [`Expired: the request of ${order.merchantName} was not answered in time`, "error"];
      case "closed": return [`The merchant cancelled the payment of ${money}`, "error"];
      case "refused": return ["Refused, nothing was taken: " + (order.reason ?? "the merchant's system no longer takes this payment"), "error"];
      default: return null;
    }
  },

  showCustomer(customer) {
    Bank.$("bank").textContent = customer.bank;
    Bank.$("balance").textContent = Wallet.money(customer.balance, customer.currency);
    Bank.$("limit").textContent = Wallet.money(customer.perPaymentLimit, customer.currency);
  },

  request(order) {
    const li = document.createElement("li");
    li.dataset.order = order.orderId;
    const title = document.createElement("strong");
    title.className = "merchant";
    title.textContent = order.merchantName;
    const amount = document.createElement("p");
    amount.className = "amount";
    amount.textContent = Wallet.money(order.amount, order.currency);
    const time = document.createElement("p");
    time.innerHTML = 'Time left: <span class="time-left"></span>';
    time.querySelector(".time-left").dataset.expiresAt = order.expiresAt;
    const actions = document.createElement("div");
    actions.className = "actions";
    const approve = document.createElement("button");
    approve.type = "button";
    approve.textContent = "Approve";
    approve.addEventListener("click", () => Bank.answer(order, "pay"));
    const field = document.createElement("div");
    field.className = "field";
    const label = document.createElement("label");
    label.textContent = "Reason";
    label.htmlFor = "reason-" + order.orderId;
    const select = document.createElement("select");
    select.id = "reason-" + order.orderId;
    for (const [value, words] of Object.entries(Bank.reasons)) select.append(new Option(words[0].toUpperCase() + words.slice(1), value));
    field.append(label, select);
    const decline = document.createElement("button");
    decline.type = "button";
    decline.textContent = "Decline";
    decline.addEventListener("click", () => Bank.answer(order, "decline", { reason: select.value }));
    actions.append(approve, field, decline);
    li.append(title, amount, time, actions);
    return li;
  },

  async answer(order, action, body) {
    Bank.shown.delete(order.orderId);
    try {
      const after = await Wallet.api("POST", `/api/orders/${encodeURIComponent(order.orderId)}/${action}`, body);
      const [text, kind] = Bank.outcome(after) ?? ["The request is still open", ""];
      Bank.say(text, kind);
    } catch (error) {
      Bank.say(error.message, "error");
    }
    await Bank.refresh();
  },

  async refresh() {
    const id = Bank.customerId();
    if (!id) return;
    try {
      const [customer, requests] = await Promise.all([
        Wallet.api("GET", `/api/blik/customers/${encodeURIComponent(id)}`),
        Wallet.api("GET", `/api/blik/customers/${encodeURIComponent(id)}/requests`),
      ]);
      if (id !== Bank.customerId()) return;
      Bank.showCustomer(customer);
      const waiting = new Set(requests.orders.map((order) => order.orderId));
      // A request gone without an answer from here: its outcome (expired, cancelled, answered elsewhere).
      for (const orderId of [...Bank.shown.keys()].filter((orderId) => !waiting.has(orderId))) {
        Bank.shown.delete(orderId);
        const order = await Wallet.api("GET", `/api/orders/${encodeURIComponent(orderId)}`).catch(() => null);
        const said = order && Bank.outcome(order);
        if (said) Bank.say(...said);
      }
      const list = Bank.$("requests");
      for (const li of [...list.children]) if (!waiting.has(li.dataset.order)) li.remove();
      for (const order of requests.orders) {
        if (!Bank.shown.has(order.orderId)) {
          Bank.shown.set(order.orderId, order);
          list.append(Bank.request(order));
        }
      }
      Bank.$("requests-empty").hidden = requests.orders.length > 0;
      Bank.tick();
    } catch (error) {
      Bank.say(error.message, "error");
    }
  },

  async generate() {
    try {
      Bank.code = await Wallet.api("POST", "/api/blik/codes", { customerId: Bank.customerId(), nine: Bank.$("nine").checked });
      Bank.$("code-box").hidden = false;
      // 123 456 or 123 456 789: the groups a person types.
      Bank.$("code").textContent = Bank.code.code.replace(/(\d{3})(?=\d)/g, "$1 ");
      Bank.$("verification-line").hidden = !Bank.code.verificationCode;
      Bank.$("verification").textContent = Bank.code.verificationCode ?? "";
      Bank.say("");
      Bank.tick();
    } catch (error) {
      Bank.say(error.message, "error");
    }
  },

  tick() {
    if (Bank.code) {
      const left = Bank.left(Bank.code.expiresAt);
      Bank.$("code-time-left").textContent = left > 0 ? `${left} s` : "expired: generate a new code";
      Bank.$("code").classList.toggle("expired", left === 0);
    }
    for (const span of document.querySelectorAll(".time-left")) span.textContent = `${Bank.left(span.dataset.expiresAt)} s`;
  },

  async start() {
    try { Bank.offset = await Wallet.clockOffset(); } catch { Bank.offset = 0; }
    try {
      Bank.customers = (await Wallet.api("GET", "/api/blik/customers")).customers;
    } catch (error) {
      return Bank.say(error.message, "error");
    }
    const select = Bank.$("customer");
    for (const customer of Bank.customers) select.append(new Option(`${customer.name} (${customer.customerId})`, customer.customerId));
    const asked = new URLSearchParams(location.search).get("customer");
    if (asked && Bank.customers.some((customer) => customer.customerId === asked)) select.value = asked;
    select.addEventListener("change", () => {
      Bank.code = null;
      Bank.$("code-box").hidden = true;
      Bank.shown.clear();
      Bank.$("requests").replaceChildren();
      Bank.say("");
      Bank.refresh();
    });
    Bank.$("generate").addEventListener("click", Bank.generate);
    setInterval(Bank.tick, 1000);
    setInterval(Bank.refresh, 2000);
    await Bank.refresh();
  },
};

Bank.start();
