import Foundation
import SandboxTestSupport

/// The card-payment passes: a device on a plain terminal, transactions in every state made over
/// HTTP before the generator runs, and one short pass per operation that needs a transaction in
/// flight (only one can be in flight on a terminal at a time).
extension ConformanceTests {
    /// What the payment passes draw from, made over HTTP before they run.
    struct PaymentWorld {
        /// Transactions at rest by what they show: every status a terminal keeps.
        var transactions: [String: String] = [:]
        /// A receipt of a cleared sale (`GET /receipts/{receiptId}` answers 200).
        var receipt = ""
        /// A checkout matching a sale of `checkoutAmount` without tip or reference, and a used one.
        var checkout = ""
        var usedCheckout = ""
        /// A reference on two transactions (409 reference_not_unique) and one on a single one.
        static let sharedReference = "conformance-twice"
        static let uniqueReference = "conformance-once"
        static let checkoutAmount = 1000

        var ids: [String] { transactions.keys.sorted().compactMap { transactions[$0] } }
        subscript(_ label: String) -> String { transactions[label] ?? "" }
    }

    /// `GET /terminal/v1/transactions/{transactionId}` takes `sale`, `refund` and `validate` as ids
    /// (answering 404 transaction_not_found), so the host rightly lists GET beside POST in the `Allow`
    /// of those paths. Schemathesis' unsupported-method check counts such templated siblings as
    /// declared; its Allow check reads only the literal path item and calls GET undocumented. That
    /// the contract now has a row for the GET changes neither side: re-enabled with schemathesis
    /// 4.32.5, the check still reports `Allow: POST, GET, HEAD` on OPTIONS of the three paths.
    static let allowHeaderCheck = "allow_header_conformance"

    /// Amounts that the magic amounts approve (outside 42.00–42.99) and one they decline (42.51).
    static let paymentAmounts = [500, 1000, 1250, 4251]
    /// Cards whose reads settle at once (no DCC offer, no PIN): a sale with one leaves the terminal free.
    static let settlingCards = ["visa", "mc", "maestro", "amex", "visa-decline", "visa-expired", "visa", "mc"]

    /// Every transaction status a terminal keeps at rest, then the latest cleared sale (still reversible).
    static func preparePayments(_ device: PaymentDevice, merchantKey: String) throws -> PaymentWorld {
        var world = PaymentWorld()
        let now = try device.hostNow()
        func card(_ name: String, pin: String? = nil, readAt: Int64? = nil) throws -> [String: Any] {
            ["cardPayload": try device.cardPayload(name, pin: pin, readAt: readAt ?? now)]
        }
        let shared: [String: Any] = ["reference": PaymentWorld.sharedReference]
        world.transactions["refunded"] = try device.sale(1000, try card("visa").merging(shared) { $1 }, expected: "CLEARED")
        world.transactions["refundable"] = try device.sale(1500, try card("mc").merging(shared) { $1 }, expected: "CLEARED")
        world.transactions["declined"] = try device.sale(1000, try card("visa-decline"), expected: "DECLINED")
        world.transactions["declined51"] = try device.sale(4251, try card("visa"), expected: "DECLINED")
        world.transactions["terminalDeclined"] = try device.sale(1000, try card("visa-expired"), expected: "TERMINAL_DECLINED")
        world.transactions["error"] = try device.sale(4296, try card("visa"), expected: "ERROR")
        world.transactions["staleRead"] = try device.sale(1000, try card("visa", readAt: now - 121_000), expected: "TIMEOUT")
        world.transactions["userCancelled"] = try device.sale(1000, ["readerOutcome": "cancelled"], expected: "USER_CANCELLED")
        world.transactions["readerTimeout"] = try device.sale(1000, ["readerOutcome": "timeout"], expected: "TIMEOUT")
        world.transactions["rejected"] = try device.sale(1000, ["readerOutcome": "background"], expected: "REJECTED")
        for (label, cardName, accepted) in [("dccAccepted", "visa-us-dcc", true), ("dccDeclined", "visa-jp-dcc", false)] {
            let id = try device.sale(2000, try card(cardName), expected: "DCC_REQUIRED")
            world.transactions[label] = try device.transaction(
                "/terminal/v1/transactions/\(id)/dcc", ["dccOfferAccepted": accepted], status: 200, expected: "CLEARED")
        }
        for (label, pin, expected) in [("pinVerified", "1234", "CLEARED"), ("wrongPin", "0000", "DECLINED")] {
            let id = try device.sale(3000, try card("mc-pin"), expected: "PIN_REQUESTED")
            world.transactions[label] = try device.transaction(
                "/terminal/v1/transactions/\(id)/pin", ["pinPayload": try device.pinPayload(pin, readAt: now)], status: 200,
                expected: expected)
        }
        world.transactions["refund"] = try device.transaction(
            "/terminal/v1/transactions/refund",
            ["currency": device.currency, "requestedAmount": 500, "transactionId": world["refunded"]]
                .merging(try card("visa")) { $1 },
            expected: "CLEARED")
        let reversed = try device.sale(1200, try card("mc"), expected: "CLEARED")
        world.transactions["cancelled"] = try device.transaction(
            "/terminal/v1/transactions/\(reversed)/reversal", ["isCancelledByUser": false], status: 200, expected: "CANCELLED")
        // Checkouts of the terminal's merchant: one waiting for its sale, one used already.
        func checkout(_ amount: Int) throws -> String {
            let made = try device.host.expect(
                201, "POST", "/merchant/v1/checkouts",
                body: ["terminalId": device.terminal.id, "amount": amount, "currency": device.currency], bearer: merchantKey)
            guard let id = made["checkoutId"] as? String else { throw HarnessError("POST /merchant/v1/checkouts gave no checkoutId: \(made)") }
            return id
        }
        world.checkout = try checkout(PaymentWorld.checkoutAmount)
        world.usedCheckout = try checkout(1100)
        world.transactions["checkoutSale"] = try device.sale(
            1100, ["checkoutId": world.usedCheckout, "readerOutcome": "cancelled"], expected: "USER_CANCELLED")
        let receipt = try device.host.expect(
            200, "POST", "/terminal/v1/transactions/\(world["refunded"])/receipt", body: ["receiptType": "QR"], bearer: device.token)
        guard let url = receipt["url"] as? String, let id = url.split(separator: "/").last else {
            throw HarnessError("POST …/receipt gave no url: \(receipt)")
        }
        world.receipt = String(id)
        // Last: the terminal's latest cleared sale, reversible for 30 minutes.
        world.transactions["reversible"] = try device.sale(
            2500, try card("visa").merging(["reference": PaymentWorld.uniqueReference]) { $1 }, expected: "CLEARED")
        return world
    }

    /// The passes of the payments surface, in order, on one host.
    static func paymentPasses(host: HostUnderTest, fixtures: Fixtures) throws -> [Pass] {
        typealias Settings = Schemathesis.OperationSettings
        guard let terminal = fixtures.terminals.first(where: { $0.isPlain && $0.registerOptions.contains("portal") }),
            let merchant = fixtures.merchants.first(where: { $0.id == terminal.merchantID })
        else { throw HarnessError("merchants.json: no plain terminal (refunds, reversals, no tips, no reference pattern, no country list) takes portal registration") }
        let other = fixtures.terminals.first { $0.id != terminal.id }?.id ?? "EU-T0000"
        let device = try PaymentDevice(host: host, terminal: terminal, device: "conformance-payment-device", pin: "1357", fixtures)
        let world = try preparePayments(device, merchantKey: merchant.apiKey)

        /// Fresh reads of settling cards, sealed now (a read older than 120 s becomes a TIMEOUT transaction).
        func payloads(_ names: [String] = settlingCards) throws -> [String] {
            let now = try device.hostNow()
            return try names.map { try device.cardPayload($0, readAt: now) }
        }
        let terminalRules = """
            The terminal's rules are no schema's business: an amount above its limitAmount (amount_over_limit), \
            a tip where it takes none (tips_not_allowed), a currency that is not its own (currency_mismatch) or that \
            ISO 4217 does not know (invalid_currency) are rightly 400 for schema-valid requests.
            """
        let payloadRefused = """
            A generated cardPayload / pinPayload is base64 but not sealed with the reader key: rightly 400 \
            card_payload_invalid (409 card_payload_replayed for a dictionary read used twice).
            """
        return [
            // Reads, receipts, validation and the reader: nothing here changes a transaction.
            Pass(
                name: "payments: reads, receipts, validation",
                filters: [
                    "--include-operation-id-regex",
                    "^(prepareReader|validateTransaction|getLastTransaction|getTransactionsHistory|getTransactionsCount|"
                        + "fetchTransactionDetails|getTransaction|getTransactionsStatistics|getDigitalReceipt|getReceiptPage)$",
                ],
                authorization: device.token,
                dictionaries: [
                    "transactions": world.ids, "references": [PaymentWorld.sharedReference, PaymentWorld.uniqueReference],
                    "terminals": [terminal.id, other], "receipts": [world.receipt],
                ],
                numbers: ["amounts": paymentAmounts],
                settings: [
                    Settings(
                        operations: ["getTransaction", "getDigitalReceipt"], reason: "Transactions in every status at rest.",
                        parameters: [("path.transactionId", "transactions")]),
                    Settings(
                        operations: ["fetchTransactionDetails"],
                        reason: """
                            Transactions, a reference on two of them (409 reference_not_unique) and on one, the session's \
                            terminal and another. Neither transactionId nor reference is rightly 400 invalid_request: \
                            OpenAPI 3.0 cannot require one of two query parameters.
                            """,
                        parameters: [
                            ("query.transactionId", "transactions"), ("query.reference", "references"),
                            ("query.terminalId", "terminals"),
                        ],
                        positiveStatuses: ["2xx", "400", "401", "404", "409"]),
                    Settings(
                        operations: ["getTransactionsStatistics"],
                        reason: "fromDate after toDate is rightly 400 invalid_request: no JSON Schema keyword orders two parameters.",
                        positiveStatuses: ["2xx", "400", "401"]),
                    Settings(
                        operations: ["validateTransaction"],
                        reason: "Ordinary amounts; a refund's sale from the transactions at rest (any other is rightly 404). "
                            + terminalRules,
                        parameters: [("body.requestedAmount", "amounts"), ("body.transactionId", "transactions")],
                        positiveStatuses: ["2xx", "400", "401", "403", "404", "409"], disabledChecks: [allowHeaderCheck]),
                    Settings(
                        operations: ["getReceiptPage"], reason: "A receipt of a cleared sale.",
                        parameters: [("path.receiptId", "receipts")]),
                ]),
            // Reversal first: the reversible sale is still the terminal's latest cleared one. From
            // here on each pass starts on a free terminal: the first sale or refund without a card
            // stays NEW for 120 s and makes every later one 409 terminal_busy.
            Pass(
                name: "payments: reversal",
                filters: ["--include-operation-id", "doReversal"], authorization: device.token,
                dictionaries: [
                    "transactions": ["reversible", "refundable", "refunded", "refund", "declined", "cancelled"].map { world[$0] }
                ],
                settings: [
                    Settings(
                        operations: ["doReversal"],
                        reason: "The latest cleared sale (200 once) and transactions that are not; reads of real cards. \(payloadRefused)",
                        parameters: [("path.transactionId", "transactions"), ("body.cardPayload", "payloads")],
                        positiveStatuses: ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"])
                ],
                prepare: { pass in pass.dictionaries["payloads"] = try payloads() }),
            Pass(
                name: "payments: refund",
                filters: ["--include-operation-id", "doRefund"],
                dictionaries: [
                    "sales": ["refundable", "refunded", "refund", "declined", "reversible"].map { world[$0] },
                    "currencies": [device.currency],
                ],
                numbers: ["amounts": paymentAmounts],
                settings: [
                    Settings(
                        operations: ["doRefund"],
                        reason: """
                            A refundable sale, one refunded already, a refund, a declined sale, the reversible one; the \
                            terminal's currency; reads of real cards. \(terminalRules) \(payloadRefused)
                            """,
                        parameters: [
                            ("body.transactionId", "sales"), ("body.currency", "currencies"), ("body.requestedAmount", "amounts"),
                            ("body.cardPayload", "payloads"),
                        ],
                        positiveStatuses: ["2xx", "400", "401", "403", "404", "409"], disabledChecks: [allowHeaderCheck])
                ],
                prepare: { pass in
                    try freeTerminal(device, &pass)
                    pass.dictionaries["payloads"] = try payloads()
                }),
            Pass(
                name: "payments: sale",
                filters: ["--include-operation-id", "doPayment"],
                dictionaries: [
                    "currencies": [device.currency], "checkouts": [world.checkout, world.usedCheckout], "callbacks": host.callbackURLs,
                ],
                numbers: ["amounts": paymentAmounts + [PaymentWorld.checkoutAmount]],
                settings: [
                    Settings(
                        operations: ["doPayment"],
                        reason: """
                            The terminal's currency, reads of real cards, a waiting and a used checkout, callback URLs on \
                            127.0.0.1 (taken) and private or not absolute (refused), so no webhook leaves the machine. A \
                            checkout's fields must all match (409 checkout_mismatch). The callbackUrl rules (https, no \
                            private or loopback address but loopback on this flavour) are no schema's business: a \
                            schema-valid callbackUrl is rightly 422 outcome_unknown. \(terminalRules) \(payloadRefused)
                            """,
                        parameters: [
                            ("body.currency", "currencies"), ("body.requestedAmount", "amounts"), ("body.cardPayload", "payloads"),
                            ("body.checkoutId", "checkouts"), ("body.callbackUrl", "callbacks"),
                        ],
                        positiveStatuses: ["2xx", "400", "401", "403", "404", "409", "410", "422"], disabledChecks: [allowHeaderCheck])
                ],
                prepare: { pass in
                    try freeTerminal(device, &pass)
                    pass.dictionaries["payloads"] = try payloads()
                }),
            // One transaction in flight per pass: the clock moves past every deadline (120 s) first,
            // so what the previous pass left in flight times out and the terminal is free.
            inFlightPass(
                "card", operation: "addCard", device: device, world: world,
                make: { try device.sale(1000, expected: "NEW") },
                payloadParameter: ("body.cardPayload", { try payloads() }), reason: payloadRefused),
            inFlightPass(
                "dcc", operation: "finishDCC", device: device, world: world,
                make: {
                    try device.sale(2000, ["cardPayload": try device.cardPayload("visa-us-dcc", readAt: try device.hostNow())],
                        expected: "DCC_REQUIRED")
                }),
            inFlightPass(
                "pin", operation: "enterPin", device: device, world: world,
                make: {
                    try device.sale(3000, ["cardPayload": try device.cardPayload("mc-pin", readAt: try device.hostNow())],
                        expected: "PIN_REQUESTED")
                },
                payloadParameter: ("body.pinPayload", {
                    let now = try device.hostNow()
                    return try ["1234", "1234", "0000"].map { try device.pinPayload($0, readAt: now) }
                }),
                reason: payloadRefused),
        ]
    }

    /// Moves the sandbox clock past every in-flight deadline (120 s), so whatever the passes before
    /// left in flight times out and the terminal takes a new transaction, and logs in again.
    static func freeTerminal(_ device: PaymentDevice, _ pass: inout Pass) throws {
        try device.advanceClock(seconds: 121)
        pass.authorization = device.token
    }

    /// A pass over `operation` (and `getTransaction`, which then reads the in-flight status) on a
    /// transaction `make` puts in flight after the sandbox clock moved past every deadline.
    static func inFlightPass(
        _ name: String, operation: String, device: PaymentDevice, world: PaymentWorld, make: @escaping () throws -> String,
        payloadParameter: (String, () throws -> [String])? = nil, reason: String = ""
    ) -> Pass {
        Pass(
            name: "payments: \(name)",
            filters: ["--include-operation-id-regex", "^(\(operation)|getTransaction)$"],
            prepare: { pass in
                try freeTerminal(device, &pass)
                let id = try make()
                pass.dictionaries["transactions"] = [id, world["refundable"], world["declined"]]
                var parameters = [("path.transactionId", "transactions")]
                if let (parameter, values) = payloadParameter {
                    pass.dictionaries["payloads"] = try values()
                    parameters.append((parameter, "payloads"))
                }
                pass.settings = [
                    Schemathesis.OperationSettings(
                        operations: [operation],
                        reason: "A transaction in flight waiting for this call (200 once) and two at rest (409). " + reason,
                        parameters: parameters, positiveStatuses: payloadParameter == nil ? nil : ["2xx", "400", "401", "404", "409"]),
                    Schemathesis.OperationSettings(
                        operations: ["getTransaction"], reason: "The same transactions.",
                        parameters: [("path.transactionId", "transactions")]),
                ]
            })
    }
}
