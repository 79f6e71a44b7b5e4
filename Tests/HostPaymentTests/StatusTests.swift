import CardPayload
import Foundation
import HostTestSupport
import SimulatedReader
import SandboxTestSupport
import Testing

/// Every TransactionStatus of docs/card-payments.md reached through HTTP with payloads the
/// simulated reader sealed.
@Suite("Card payments: every transaction status")
struct StatusTests {
    @Test("magic amounts 42.XX and card flags: CLEARED 00, DECLINED 51/05/54/55/91 and visa-decline 05, TERMINAL_DECLINED, ERROR 96")
    func issuerOutcomes() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let prepared = try #require(till.prepared)
            #expect(till.readerKey.count == 32, "\(l) the reader key must be 32 bytes: \(prepared)")
            #expect(prepared.int("cardScreenTimeoutSeconds") == 40, "\(l) prepare cardScreenTimeoutSeconds: \(prepared)")
            #expect(prepared.int("payloadLifetimeSeconds") == 120, "\(l) prepare payloadLifetimeSeconds: \(prepared)")
            #expect(prepared.int("pinTimeoutSeconds") == 60, "\(l) prepare pinTimeoutSeconds: \(prepared)")
            #expect(prepared.string("keyId")?.isEmpty == false, "\(l) prepare keyId: \(prepared)")
            expectReply(
                await till.service.call("POST", "/terminal/v1/reader/prepare"), 401, "unauthorized", "\(l) reader prepare without session")

            let approved = expectTransaction(
                try await till.pay("visa", amount: 1000), 201, "CLEARED", responseCode: "00", "\(l) visa 10.00 (not magic)")
            #expect(matches(approved.string("authId"), #"^\d{6}$"#), "\(l) CLEARED authId is not 6 digits: \(approved)")
            #expect(matches(approved.string("retrievalRefNum"), #"^\d{12}$"#), "\(l) CLEARED RRN is not 12 digits: \(approved)")
            #expect(approved.string("cardNumber") == "476173******0011", "\(l) masked PAN of visa: \(approved)")
            #expect(approved.string("transactionType") == "AUTH", "\(l) a sale is type AUTH: \(approved)")
            #expect(approved.int("transactionAmount") == 1000, "\(l) amount: \(approved)")

            for (amount, code) in [(4251, "51"), (4205, "05"), (4254, "54"), (4255, "55"), (4291, "91")] {
                let reply = expectTransaction(
                    try await till.pay("visa", amount: amount), 201, "DECLINED", responseCode: code,
                    "\(l) visa amount \(amount) (magic 42.\(code))")
                #expect(reply.string("authId") ?? "" == "", "\(l) a declined sale carries an authId: \(reply)")
            }
            // Ordinary prices are never magic: the seed's own example amount, 11.91, clears.
            expectTransaction(
                try await till.pay("visa", amount: 1191), 201, "CLEARED", responseCode: "00", "\(l) visa 11.91 (the seed's example)")
            // A 42.XX without a rule answers its code XX as a decline, as Worldline's sandbox does.
            let unlisted = expectTransaction(
                try await till.pay("visa", amount: 4233), 201, "DECLINED", responseCode: "33", "\(l) visa 42.33 (no rule for 33)")
            #expect(unlisted.string("responseMsg") == "Declined by the issuer (response code 33)", "\(l) 42.33 message: \(unlisted)")
            expectTransaction(
                try await till.pay("visa-decline", amount: 1000), 201, "DECLINED", responseCode: "05",
                "\(l) visa-decline 10.00 (issuer always declines)")
            let expired = expectTransaction(
                try await till.pay("amex-expired", amount: 1000), 201, "TERMINAL_DECLINED", "\(l) amex-expired 10.00")
            #expect(expired.string("cardType") == "AMEX", "\(l) amex-expired keeps its brand: \(expired)")
            expectTransaction(
                try await till.pay("visa", amount: 4296), 201, "ERROR", responseCode: "96", "\(l) visa amount 4296 (magic 42.96)")
            // Magic amounts read the base amount (requested − tip), not the total.
            expectTransaction(
                try await till.pay("visa", amount: 4751, tip: 500), 201, "DECLINED", responseCode: "51",
                "\(l) 47.51 with a 5.00 tip (base 42.51)")
            expectTransaction(
                try await till.pay("visa", amount: 4251, tip: 251), 201, "CLEARED", responseCode: "00",
                "\(l) 42.51 with a 2.51 tip (base 40.00)")
        }
    }

    @Test("PIN: mc-pin without PIN and magic 42.65 give PIN_REQUESTED; Reader.enterPin clears, a wrong PIN declines 55, no PIN in 60 s is TIMEOUT")
    func pinFlows() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            // mc-pin tapped without its PIN: the host asks, the reader seals the PIN, the sale clears.
            let asked = expectTransaction(
                try await till.pay("mc-pin", amount: 2000, pin: .deferred), 201, "PIN_REQUESTED", responseCode: "65",
                "\(l) mc-pin tapped without PIN")
            let id = try #require(asked.transactionId)
            expectReply(await till.sale(amount: 500), 409, "terminal_busy", "\(l) a sale while PIN_REQUESTED")
            let pin = try #require(try await till.enterPin().sealedPayload, "\(l) the reader sealed no PIN")
            let paid = expectTransaction(
                await till.pin(id, payload: pin, key: "pin-\(id)"), 200, "CLEARED", responseCode: "00", "\(l) PIN step with the right PIN")
            let again = expectTransaction(
                await till.pin(id, payload: pin, key: "pin-\(id)"), 200, "CLEARED", "\(l) the PIN step sent again with its key")
            #expect(again.header("Idempotent-Replayed") == "true", "\(l) PIN replay header: \(again.headers)")
            #expect(again.int("transactionRetry") == paid.int("transactionRetry"), "\(l) the replay counted another PIN try: \(again)")
            #expect(paid.transactionId == id, "\(l) the PIN step answers the same transaction: \(paid)")
            #expect(paid.string("cardNumber") == "555555******4444", "\(l) masked PAN of mc-pin: \(paid)")

            // The PIN typed on the reader at the tap travels in the card payload: one request.
            expectTransaction(
                try await till.pay("mc-pin", amount: 2100, pin: .correct), 201, "CLEARED", responseCode: "00",
                "\(l) mc-pin with its PIN typed at the tap")
            expectTransaction(
                try await till.pay("mc-pin", amount: 2200, pin: .wrong), 201, "DECLINED", responseCode: "55",
                "\(l) mc-pin with a wrong PIN typed at the tap")

            // A wrong PIN at the PIN step declines with 55.
            let second = expectTransaction(
                try await till.pay("mc-pin", amount: 2300, pin: .deferred, pinOnRequest: .wrong), 201, "PIN_REQUESTED",
                responseCode: "65", "\(l) mc-pin again without PIN")
            let wrong = try #require(try await till.enterPin().sealedPayload, "\(l) the reader sealed no (wrong) PIN")
            expectTransaction(
                await till.pin(try #require(second.transactionId), payload: wrong), 200, "DECLINED", responseCode: "55",
                "\(l) PIN step with a wrong PIN")

            // Magic 42.65 on a card without PIN: soft decline, the PIN step (1234, the sandbox's test PIN) clears it.
            let soft = expectTransaction(
                try await till.pay("visa", amount: 4265), 201, "PIN_REQUESTED", responseCode: "65", "\(l) visa amount 4265 (magic 42.65)")
            let softPin = try #require(try await till.enterPin().sealedPayload, "\(l) the reader sealed no PIN for 42.65")
            expectTransaction(
                await till.pin(try #require(soft.transactionId), payload: softPin), 200, "CLEARED", responseCode: "00",
                "\(l) PIN step after magic 42.65")

            // Nobody types the PIN: the reader gives up after its 60 s, the host times out after 60 s on its clock.
            // (The host's sandbox clock also runs with real time: steps stop 5 s short of a deadline, not 1 s,
            // so a slow machine cannot carry the test past it.)
            let waiting = expectTransaction(
                try await till.pay("mc-pin", amount: 2400, pin: .deferred, pinOnRequest: .notEntered), 201, "PIN_REQUESTED",
                responseCode: "65", "\(l) mc-pin once more without PIN")
            let waitingID = try #require(waiting.transactionId)
            let gaveUp = try await till.enterPin()
            #expect(gaveUp.outcome == .timeout, "\(l) the reader's PIN pad should time out after 60 s: \(gaveUp.value)")
            try await till.advance(55, "55 s into the PIN wait")
            expectTransaction(await till.details(waitingID), 200, "PIN_REQUESTED", "\(l) 55 s after PIN_REQUESTED")
            try await till.advance(6, "61 s into the PIN wait")
            expectTransaction(await till.details(waitingID), 200, "TIMEOUT", "\(l) 61 s after PIN_REQUESTED without PIN")
            // A PIN arriving late (the right one, sealed for this terminal) changes nothing.
            let late = try PayloadSealer.seal(
                PinPayload(
                    readId: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                    readAt: Int64(((till.clock.now().timeIntervalSince1970 + till.offset) * 1000).rounded()), pin: "1234"),
                key: till.readerKey, region: till.region, terminalId: till.id)
            expectReply(await till.pin(waitingID, payload: late), 409, "transaction_wrong_state", "\(l) a PIN after the timeout")
            expectTransaction(await till.details(waitingID), 200, "TIMEOUT", "\(l) still TIMEOUT after the late PIN")
            expectTransaction(
                try await till.pay("visa", amount: 1000), 201, "CLEARED", "\(l) the terminal takes a sale after the timeout")
        }
    }

    @Test("ONGOING (42.68) is busy and becomes TIMEOUT once 30 s pass on the host clock")
    func authorisationTimeout() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let ongoing = expectTransaction(
                try await till.pay("visa", amount: 4268), 201, "ONGOING", responseCode: "68", "\(l) visa amount 4268 (magic 42.68)")
            let id = try #require(ongoing.transactionId)
            expectReply(await till.sale(amount: 1000), 409, "terminal_busy", "\(l) a sale while ONGOING")
            try await till.advance(25, "25 s after the authorisation request")
            expectTransaction(await till.details(id), 200, "ONGOING", "\(l) 25 s after ONGOING")
            try await till.advance(6, "31 s after the authorisation request")
            expectTransaction(await till.details(id), 200, "TIMEOUT", "\(l) 31 s after ONGOING")
            expectTransaction(await till.last(), 200, "TIMEOUT", "\(l) last transaction after the timeout")
            expectTransaction(try await till.pay("visa", amount: 1000), 201, "CLEARED", "\(l) a sale after the timeout")
        }
    }

    @Test("NEW: a sale without card waits for POST …/card (→ CLEARED); left 120 s on the host clock it is TIMEOUT")
    func twoStepSale() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            let created = expectTransaction(await till.sale(amount: 1500), 201, "NEW", "\(l) sale without card")
            let id = try #require(created.transactionId)
            expectDetailShape(created, "\(l) NEW detail")
            expectReply(await till.sale(amount: 1000), 409, "terminal_busy", "\(l) a sale while NEW")
            let payload = try await till.tap("visa", amount: 1500)
            let paid = expectTransaction(await till.card(id, payload: payload), 200, "CLEARED", responseCode: "00", "\(l) card step")
            #expect(paid.transactionId == id, "\(l) the card step answers the same transaction: \(paid)")
            #expect(paid.string("cardNumber") == "476173******0011", "\(l) card step masked PAN: \(paid)")

            // The card step with a reader outcome.
            let cancelled = expectTransaction(await till.sale(amount: 1600), 201, "NEW", "\(l) another sale without card")
            expectTransaction(
                await till.card(try #require(cancelled.transactionId), outcome: "cancelled"), 200, "USER_CANCELLED",
                "\(l) card step reporting the cancelled card screen")

            let abandoned = expectTransaction(await till.sale(amount: 1700), 201, "NEW", "\(l) a third sale without card")
            let abandonedID = try #require(abandoned.transactionId)
            try await till.advance(115, "115 s after NEW")
            expectTransaction(await till.details(abandonedID), 200, "NEW", "\(l) 115 s after NEW")
            try await till.advance(6, "121 s after NEW")
            expectTransaction(await till.details(abandonedID), 200, "TIMEOUT", "\(l) 121 s after NEW without card")
            let late = try await till.tap("visa", amount: 1700)
            expectReply(await till.card(abandonedID, payload: late), 409, "transaction_wrong_state", "\(l) a card after the timeout")
            expectTransaction(await till.sale(amount: 1000, payload: late), 201, "CLEARED", "\(l) the unused read pays a new sale")
        }
    }

    @Test("reader outcomes: cancelled → USER_CANCELLED, background → REJECTED, no tap 40 s → TIMEOUT; a payload older than 120 s → TIMEOUT")
    func readerOutcomes() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            let cancel = try await till.read(.cancel(after: 3), amount: 1000)
            #expect(cancel.outcome == .cancelled, "\(l) reader: cancel script: \(cancel.value)")
            expectTransaction(
                await till.sale(amount: 1000, outcome: try #require(cancel.outcome?.rawValue)), 201, "USER_CANCELLED",
                "\(l) sale with readerOutcome cancelled")

            let background = try await till.read(.background(after: 2), amount: 1000)
            #expect(background.outcome == .background, "\(l) reader: background script: \(background.value)")
            expectTransaction(
                await till.sale(amount: 1000, outcome: try #require(background.outcome?.rawValue)), 201, "REJECTED",
                "\(l) sale with readerOutcome background")

            let before = till.clock.now()
            let noTap = try await till.read(.noTap(), amount: 1000)
            #expect(noTap.outcome == .timeout, "\(l) reader: nobody taps: \(noTap.value)")
            #expect(till.clock.now().timeIntervalSince(before) >= 40, "\(l) the reader gave up before 40 s on its clock")
            #expect(noTap.events.contains(.paymentTimeout), "\(l) the card screen showed no Payment Timeout: \(noTap.events)")
            expectTransaction(
                await till.sale(amount: 1000, outcome: try #require(noTap.outcome?.rawValue)), 201, "TIMEOUT",
                "\(l) sale with readerOutcome timeout")

            // Try Again after the first timeout, then a tap: one payload.
            let retried = try await till.read(.noTap(thenTryAgain: .tap(try testCard("visa"))), amount: 1000)
            expectTransaction(
                await till.sale(amount: 1000, payload: try #require(retried.sealedPayload, "\(l) no payload after Try Again")),
                201, "CLEARED", "\(l) sale with the read after Try Again")

            // readAt is the tap on the host's clock: serverTime + the 2 s the customer took.
            let aligned = try #require(try await till.read(.tap(try testCard("visa")), amount: 1000).read)
            let serverTime = try #require(parseTime(till.prepared?["serverTime"]))
            let skew = Double(aligned.readAt) / 1000 - serverTime.timeIntervalSince1970
            #expect(skew >= 1 && skew <= 4, "\(l) readAt \(aligned.readAt) is \(skew) s from serverTime \(serverTime)")
            expectTransaction(await till.sale(amount: 1000, payload: aligned.sealed), 201, "CLEARED", "\(l) sale with the aligned read")

            // A read that reaches the host more than 120 s after the tap (host clock).
            let stale = try await till.tap("visa", amount: 1200)
            await host.advanceClock(125, "\(l) the payload waits 125 s")
            let timedOut = expectTransaction(
                await till.sale(amount: 1200, payload: stale), 201, "TIMEOUT", "\(l) sale with a payload read 125 s ago")
            #expect(timedOut.string("authId") ?? "" == "", "\(l) a stale read must not be authorised: \(timedOut)")
            // One read 100 s old is still good.
            let fresh = try await till.tap("visa", amount: 1300)
            await host.advanceClock(100, "\(l) the payload waits 100 s")
            expectTransaction(await till.sale(amount: 1300, payload: fresh), 201, "CLEARED", "\(l) sale with a payload read 100 s ago")
        }
    }

    @Test("DCC on EU: visa-us-dcc → DCC_REQUIRED priced from fx.json; accept (ACCEPTED) and decline both clear; magic amounts apply after")
    func dcc() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            #expect(host.facts.dcc, "EU must be a DCC region in environments.json")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let fx = try FX.load()

            let offered = expectTransaction(
                try await till.pay("visa-us-dcc", amount: 2000), 201, "DCC_REQUIRED", "\(l) visa-us-dcc 20.00")
            let id = try #require(offered.transactionId)
            fx.expectQuote(offered, amount: 2000, from: host.currency, to: "USD", "\(l) DCC offer for 20.00 \(host.currency)")
            #expect(offered.string("dccStatus") != "ACCEPTED", "\(l) the offer is not accepted yet: \(offered)")
            // A sale waiting for the DCC choice can be reversed, and its detail says so.
            #expect(offered.bool("cancellable") == true, "\(l) a DCC_REQUIRED sale is cancellable: \(offered)")
            #expect(
                expectTransaction(await till.details(id), 200, "DCC_REQUIRED", "\(l) details of the DCC offer").bool("cancellable") == true,
                "\(l) the details of a DCC_REQUIRED sale say it is cancellable")
            expectReply(await till.sale(amount: 1000), 409, "terminal_busy", "\(l) a sale while DCC_REQUIRED")
            let accepted = expectTransaction(
                await till.dcc(id, accepted: true, key: "dcc-\(id)"), 200, "CLEARED", responseCode: "00",
                "\(l) customer accepts the DCC offer")
            let replayed = expectTransaction(
                await till.dcc(id, accepted: true, key: "dcc-\(id)"), 200, "CLEARED", "\(l) the DCC choice sent again with its key")
            #expect(replayed.header("Idempotent-Replayed") == "true", "\(l) DCC replay header: \(replayed.headers)")
            expectReply(
                await till.dcc(id, accepted: false, key: "dcc-\(id)"), 409, "idempotency_key_reused", "\(l) the DCC key with the other choice")
            expectReply(await till.dcc(id, accepted: true), 409, "transaction_wrong_state", "\(l) a second DCC choice without key")
            #expect(accepted.string("dccStatus") == "ACCEPTED", "\(l) dccStatus after accepting: \(accepted)")
            fx.expectQuote(accepted, amount: 2000, from: host.currency, to: "USD", "\(l) accepted DCC")
            #expect(accepted.int("transactionAmount") == 2000, "\(l) the terminal amount stays 2000: \(accepted)")

            let refused = expectTransaction(
                try await till.pay("visa-us-dcc", amount: 3000), 201, "DCC_REQUIRED", "\(l) visa-us-dcc 30.00")
            let declined = expectTransaction(
                await till.dcc(try #require(refused.transactionId), accepted: false), 200, "CLEARED", responseCode: "00",
                "\(l) customer declines the DCC offer")
            #expect(declined.string("dccStatus") == "DECLINED", "\(l) dccStatus after declining: \(declined)")
            // The refused offer stays in the detail: what was offered, in which currency, at which rate.
            fx.expectQuote(declined, amount: 3000, from: host.currency, to: "USD", "\(l) declined DCC keeps the offer")
            fx.expectQuote(
                expectTransaction(await till.details(try #require(refused.transactionId)), 200, "CLEARED", "\(l) details after declining DCC"),
                amount: 3000, from: host.currency, to: "USD", "\(l) details of a declined DCC offer")

            // JPY has no minor unit: 10.00 EUR × 162.31 × 1.035 = 1679.9085 → 1680.
            let yen = expectTransaction(
                try await till.pay("visa-jp-dcc", amount: 1000), 201, "DCC_REQUIRED", "\(l) visa-jp-dcc 10.00")
            fx.expectQuote(yen, amount: 1000, from: host.currency, to: "JPY", "\(l) DCC offer in yen")
            expectTransaction(
                await till.reversal(try #require(yen.transactionId), byUser: true), 200, "USER_CANCELLED",
                "\(l) the customer cancels during the DCC choice (reversal isCancelledByUser)")

            // After the choice the magic amounts decide.
            let magic = expectTransaction(
                try await till.pay("visa-us-dcc", amount: 4251), 201, "DCC_REQUIRED", "\(l) visa-us-dcc 42.51")
            let magicDeclined = expectTransaction(
                await till.dcc(try #require(magic.transactionId), accepted: true), 200, "DECLINED", responseCode: "51",
                "\(l) accepting DCC on a 42.51 amount")
            fx.expectQuote(magicDeclined, amount: 4251, from: host.currency, to: "USD", "\(l) an issuer's decline keeps the DCC offer")

            // A domestic card is never offered DCC.
            expectTransaction(try await till.pay("visa", amount: 1000), 201, "CLEARED", "\(l) a BE visa on EUR: no DCC")
        }
    }

    @Test("DCC is not offered on a region without DCC")
    func noDccRegion() async throws {
        try await withSandbox(regions: ["PAYONE_DE"]) { sandbox in
            let region = "PAYONE_DE"
            let host = try sandbox.host(region)
            #expect(!host.facts.dcc, "\(region) must not be a DCC region in environments.json")
            let till = try await Till.open(host, try host.counter())
            let reply = expectTransaction(
                try await till.pay("visa-us-dcc", amount: 2000), 201, "CLEARED", "\(till.label) visa-us-dcc on a region without DCC")
            #expect(reply["dccStatus"] is NSNull || reply["dccStatus"] == nil, "\(till.label) no DCC status expected: \(reply)")
        }
    }
}

/// `sandbox-data/fx.json` and the arithmetic of docs/card-payments.md.
struct FX {
    var markup: Decimal
    var ecb: Bool
    var rates: [String: [String: Decimal]]

    static let exponents = ["EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "AUD": 2, "CZK": 2, "PLN": 2, "CHF": 2]

    static func load() throws -> FX {
        let url = Paths.sandboxData.appendingPathComponent("fx.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        // Numbers through their text, so 1.0842 stays exact.
        func decimal(_ value: Any?) -> Decimal { Decimal(string: "\(value ?? "0")") ?? 0 }
        var rates: [String: [String: Decimal]] = [:]
        for (from, row) in object["rates"] as? [String: [String: Any]] ?? [:] {
            rates[from] = row.mapValues { decimal($0) }
        }
        return FX(markup: decimal(object["markupPercent"]), ecb: object["ecbIndicator"] as? Bool ?? false, rates: rates)
    }

    /// amount × rate × (1 + markup), moved to the card currency's exponent, rounded half up.
    func amount(_ amount: Int, from: String, to: String) -> Int? {
        guard let rate = rates[from]?[to], let e1 = Self.exponents[from], let e2 = Self.exponents[to] else { return nil }
        var exact = Decimal(amount) * rate * (100 + markup) / 100
        exact = exact * Decimal(sign: .plus, exponent: e2 - e1, significand: 1)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 0, .plain)
        return Int(NSDecimalNumber(decimal: rounded).int64Value)
    }

    func expectQuote(
        _ reply: HTTPReply, amount: Int, from: String, to: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let wanted = self.amount(amount, from: from, to: to)
        #expect(wanted != nil, "\(step): fx.json has no \(from)→\(to) rate", sourceLocation: sourceLocation)
        #expect(reply.int("dccAmount") == wanted, "\(step): dccAmount expected \(wanted ?? -1): \(reply)", sourceLocation: sourceLocation)
        #expect(currencyCode(reply["dccCurrency"]) == to, "\(step): dccCurrency expected \(to): \(reply)", sourceLocation: sourceLocation)
        let rate = rates[from]?[to].map { Double("\($0)") ?? 0 }
        #expect(
            reply.double("dccExchangeRate") == rate,
            "\(step): dccExchangeRate expected \(rate ?? 0) (fx.json, without markup): \(reply)", sourceLocation: sourceLocation)
        #expect(
            reply.double("dccMarkup") == Double("\(markup)"), "\(step): dccMarkup expected \(markup): \(reply)",
            sourceLocation: sourceLocation)
        #expect(
            reply.bool("dccEcbIndicator") == ecb, "\(step): dccEcbIndicator expected \(ecb): \(reply)", sourceLocation: sourceLocation)
    }
}
