import CardPayload
import Foundation
import HostTestSupport
import SimulatedReader
import SandboxTestSupport
import Testing

/// Bad input gets a clear error and leaves no transaction behind (count checked around each).
@Suite("Card payments: bad input")
struct BadInputTests {
    @Test("amounts, currencies and references: invalid_amount, amount_over_limit, overflow, invalid_currency, currency_mismatch, invalid_reference")
    func amountsCurrenciesReferences() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let currency = till.currency

            await till.refused(400, "invalid_amount", "amount 0") { await till.sale(amount: 0) }
            await till.refused(400, "invalid_amount", "amount -100") { await till.sale(amount: -100) }
            await till.refused(400, "amount_over_limit", "amount over the limit") {
                await till.sale(amount: till.terminal.limitAmount + 1)
            }
            for number in ["1e30", "9223372036854775808", "-9223372036854775809", "12.5"] {
                let reply = await till.refused(400, "invalid_json", "requestedAmount \(number) in the JSON body") {
                    await till.rawSale(#"{"currency": "\#(currency)", "requestedAmount": \#(number)}"#)
                }
                #expect(reply.errorField == "requestedAmount", "\(l) requestedAmount \(number): the error must name the field: \(reply)")
            }
            let typed = await till.refused(400, "invalid_json", "requestedAmount as a string") {
                await till.rawSale(#"{"currency": "\#(currency)", "requestedAmount": "1000"}"#)
            }
            #expect(typed.errorField == "requestedAmount", "\(l) requestedAmount as a string: the error must name the field: \(typed)")
            await till.refused(400, "invalid_json", "requestedAmount missing") { await till.rawSale(#"{"currency": "\#(currency)"}"#) }
            await till.refused(400, "invalid_json", "a body that is not JSON") { await till.rawSale("requestedAmount=1000") }

            await till.refused(400, "invalid_currency", "currency ABC") { await till.sale(amount: 1000, currency: "ABC") }
            await till.refused(400, "invalid_currency", "currency in lower case") {
                await till.sale(amount: 1000, currency: currency.lowercased())
            }
            let foreign = currency == "USD" ? "GBP" : "USD"
            await till.refused(400, "currency_mismatch", "currency \(foreign) on a \(currency) terminal") {
                await till.sale(amount: 1000, currency: foreign)
            }

            await till.refused(400, "invalid_reference", "reference of 51 characters") {
                await till.sale(amount: 1000, reference: String(repeating: "R", count: 51))
            }
            await till.refused(400, "invalid_reference", "reference with a BEL control character") {
                await till.sale(amount: 1000, reference: "ORDER\u{07}1")
            }
            await till.refused(400, "invalid_reference", "reference with a line feed") {
                await till.sale(amount: 1000, reference: "ORDER\n1")
            }
            await till.refused(400, "invalid_reference", "empty reference") { await till.sale(amount: 1000, reference: "") }
            let fifty = String(repeating: "R", count: 50)
            let ok = expectTransaction(
                try await till.pay("visa", amount: 1000, reference: fifty), 201, "CLEARED", "\(l) reference of 50 characters")
            #expect(ok.string("externalID") == fifty, "\(l) the reference comes back as externalID: \(ok)")

            let invoices = try await Till.open(host, try host.patterned())
            let pattern = invoices.terminal.reference.pattern ?? ""
            await invoices.refused(400, "invalid_reference", "reference INV-12345 against \(pattern)") {
                await invoices.sale(amount: 1000, reference: "INV-12345")
            }
            await invoices.refused(400, "invalid_reference", "reference xINV-123456 (pattern must match whole)") {
                await invoices.sale(amount: 1000, reference: "xINV-123456")
            }
            expectTransaction(
                try await invoices.pay("visa", amount: 1000, reference: "INV-123456"), 201, "CLEARED",
                "\(invoices.label) reference INV-123456 matching \(pattern)")
        }
    }

    @Test("payloads: tampered, for another terminal, for another region, replayed, both cardPayload and readerOutcome")
    func payloads() async throws {
        try await withSandbox(regions: ["EU", "ANZ"]) { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let other = try await Till.open(host, try host.second(besides: till.id))
            let l = till.label

            // Flip one byte of the ciphertext (after the 12-byte nonce).
            let good = try await till.tap("visa", amount: 1000)
            var bytes = [UInt8](try #require(Data(base64Encoded: good)))
            bytes[14] ^= 0x01
            let tampered = Data(bytes).base64EncodedString()
            await till.refused(400, "card_payload_invalid", "a payload with one byte flipped") {
                await till.sale(amount: 1000, payload: tampered)
            }
            await till.refused(400, "card_payload_invalid", "a payload that is not base64") {
                await till.sale(amount: 1000, payload: "not base64 at all!")
            }
            await till.refused(400, "card_payload_invalid", "a payload of 10 bytes") {
                await till.sale(amount: 1000, payload: Data(bytes.prefix(10)).base64EncodedString())
            }
            // The untouched original was not spent by those attempts.
            expectTransaction(await till.sale(amount: 1000, payload: good), 201, "CLEARED", "\(l) the untouched payload")
            await till.refused(409, "card_payload_replayed", "the same payload again") { await till.sale(amount: 1000, payload: good) }
            let waiting = expectTransaction(await till.sale(amount: 1000), 201, "NEW", "\(l) sale without card")
            let waitingID = try #require(waiting.transactionId)
            await till.refused(409, "card_payload_replayed", "a used payload on the card step") {
                await till.card(waitingID, payload: good)
            }
            expectTransaction(await till.details(waitingID), 200, "NEW", "\(l) the sale still waits after the replayed card")
            expectTransaction(await till.card(waitingID, outcome: "cancelled"), 200, "USER_CANCELLED", "\(l) close the waiting sale")

            // Sealed for another terminal of the same region and key.
            let forOther = try await till.tap("visa", amount: 1000, for: other.id)
            await till.refused(400, "card_payload_invalid", "a payload sealed for \(other.id)") {
                await till.sale(amount: 1000, payload: forOther)
            }
            expectTransaction(
                await other.sale(amount: 1000, payload: forOther), 201, "CLEARED", "\(other.label) its own payload, refused on \(till.id)")

            // Sealed for another region (same key, associated data naming ANZ), and with another region's key.
            let card = try testCard("visa")
            let read = CardPayload(
                readId: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                readAt: Int64(((till.clock.now().timeIntervalSince1970 + till.offset) * 1000).rounded()), card: card.cardData)
            let otherRegion = try PayloadSealer.seal(read, key: till.readerKey, region: "ANZ", terminalId: till.id)
            await till.refused(400, "card_payload_invalid", "a payload sealed for region ANZ") {
                await till.sale(amount: 1000, payload: otherRegion)
            }
            let anz = try sandbox.host("ANZ")
            let anzTill = try await Till.open(anz, try anz.counter())
            #expect(anzTill.readerKey != till.readerKey, "ANZ and EU must have different reader keys")
            let anzPayload = try await anzTill.tap("visa", amount: 1000)
            await till.refused(400, "card_payload_invalid", "a payload the ANZ reader sealed for \(anzTill.id)") {
                await till.sale(amount: 1000, payload: anzPayload)
            }
            let sameRegion = try PayloadSealer.seal(read, key: till.readerKey, region: till.region, terminalId: till.id)
            expectTransaction(
                await till.sale(amount: 1000, payload: sameRegion), 201, "CLEARED", "\(l) the same read sealed for EU and \(till.id)")

            // Both a card and a reader outcome, or an unknown outcome.
            let both = try await till.tap("visa", amount: 1000)
            await till.refused(400, "invalid_request", "cardPayload and readerOutcome together") {
                await till.sale(amount: 1000, payload: both, outcome: "cancelled")
            }
            await till.refused(400, "invalid_request", "readerOutcome exploded") { await till.sale(amount: 1000, outcome: "exploded") }
            expectTransaction(await till.sale(amount: 1000, payload: both), 201, "CLEARED", "\(l) the payload alone afterwards")
        }
    }

    @Test("foreign transaction ids: another terminal's transaction is transaction_not_found on every call")
    func foreignIds() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let other = try await Till.open(host, try host.second(besides: till.id))
            let l = till.label

            _ = try await till.cleared(amount: 1000, "own sale")
            let foreign = try await other.cleared(amount: 2000, "\(other.id) sale")
            _ = try await other.cleared(amount: 3000, "\(other.id) later sale (the first becomes refundable)")
            let pending = expectTransaction(await other.sale(amount: 1000), 201, "NEW", "\(other.label) a waiting sale")
            let pendingID = try #require(pending.transactionId)
            let payload = try await till.tap("visa", amount: 1000)
            let pin = try await till.enterPin().sealedPayload ?? payload

            let calls: [(String, () async -> HTTPReply)] = [
                ("details by id", { await till.details(foreign) }),
                ("GET /transactions/{id}", { await till.service.call("GET", "/terminal/v1/transactions/\(foreign)", bearer: till.token) }),
                ("details naming the other terminal", { await till.details(query: "transactionId=\(foreign)&terminalId=\(other.id)") }),
                ("refund", { await till.refund(foreign, amount: 100) }),
                ("reversal", { await till.reversal(foreign) }),
                ("card step", { await till.card(pendingID, payload: payload) }),
                ("PIN step", { await till.pin(pendingID, payload: pin) }),
                ("DCC choice", { await till.dcc(pendingID, accepted: true) }),
                ("receipt", { await till.receipt(foreign, type: "QR") }),
                ("unknown id", { await till.details(UUID().uuidString.lowercased()) }),
            ]
            for (name, call) in calls {
                await till.refused(404, "transaction_not_found", "\(name) of \(other.id)'s transaction") { await call() }
            }
            await till.refused(400, "invalid_request", "a malformed transaction id in the path") {
                await till.reversal("not%20an%20id")
            }
            expectTransaction(await other.details(pendingID), 200, "NEW", "\(other.label) its transaction is untouched")
            expectTransaction(await other.details(foreign), 200, "CLEARED", "\(other.label) its sale is untouched")
            expectTransaction(await till.sale(amount: 1000, payload: payload), 201, "CLEARED", "\(l) the payload was not spent")
        }
    }
}
