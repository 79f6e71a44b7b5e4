import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// POST /terminal/v1/transactions/validate and the TransactionDetail wire shape.
@Suite("Card payments: validate and TransactionDetail")
struct ValidateDetailTests {
    @Test("validate PAYMENT/REFUND/REVERSAL with the terminal's rules; session_expiring under 60 s of session")
    func validate() async throws {
        // The hosts' clocks stand still but for the test's moves: "61 s left" stays 61 s on a loaded machine.
        let sandbox = try InProcessSandbox(regions: ["EU"])
        defer { sandbox.stop() }
        do {
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let limit = till.terminal.limitAmount

            expectReply(await till.validate("PAYMENT", amount: 1000), 204, nil, "\(l) validate PAYMENT 10.00")
            expectReply(await till.validate("PAYMENT", amount: limit), 204, nil, "\(l) validate PAYMENT at the limit")
            expectReply(await till.validate("PAYMENT", amount: limit + 1), 400, "amount_over_limit", "\(l) validate PAYMENT over the limit")
            expectReply(await till.validate("PAYMENT", amount: 0), 400, "invalid_amount", "\(l) validate PAYMENT 0")
            expectReply(await till.validate("PAYMENT"), 400, "invalid_request", "\(l) validate PAYMENT without amount")
            expectReply(await till.validate("REFUND", amount: 1000), 204, nil, "\(l) validate REFUND")
            expectReply(await till.validate("REVERSAL"), 204, nil, "\(l) validate REVERSAL")
            expectReply(await till.validate("CASHBACK", amount: 1000), 400, "invalid_request", "\(l) validate CASHBACK")
            #expect(await till.count("after validating") == 0, "\(l) validate must create no transaction")

            let kiosk = try await Till.open(host, try host.refundsOff())
            expectReply(await kiosk.validate("REFUND", amount: 1000), 403, "refund_not_allowed", "\(kiosk.label) validate REFUND")
            expectReply(
                await kiosk.validate("PAYMENT", amount: kiosk.terminal.limitAmount + 1), 400, "amount_over_limit",
                "\(kiosk.label) validate PAYMENT over the low limit")
            expectReply(await kiosk.validate("REVERSAL"), 204, nil, "\(kiosk.label) validate REVERSAL")

            let travel = try await Till.open(host, try host.reversalsOff())
            let permitted = try #require(travel.terminal.permittedCountries?.first, "\(travel.id) has no permittedCountries")
            expectReply(await travel.validate("REVERSAL"), 403, "reversal_not_allowed", "\(travel.label) validate REVERSAL")
            expectReply(
                await travel.validate("PAYMENT", amount: 1000, country: "US"), 403, "country_not_permitted",
                "\(travel.label) validate PAYMENT in US")
            expectReply(
                await travel.validate("PAYMENT", amount: 1000, country: permitted), 204, nil,
                "\(travel.label) validate PAYMENT in \(permitted)")
            await travel.refused(403, "country_not_permitted", "sale in US") { await travel.sale(amount: 1000, country: "US") }
            let payload = try await travel.tap("visa", amount: 1000)
            expectTransaction(
                await travel.sale(amount: 1000, payload: payload, country: permitted), 201, "CLEARED", "\(travel.label) sale in \(permitted)")

            // The session (600 s) has less than a minute left.
            let session = expectReply(
                await till.service.call("GET", "/terminal/v1/sessions/current", bearer: till.token), 200, nil, "\(l) session")
            let ends = try #require(parseTime(session["expiresAt"]), "\(l) session expiresAt: \(session)")
            let clock = expectReply(await till.service.call("GET", "/_sandbox/clock"), 200, nil, "\(l) clock")
            let now = try #require(parseTime(clock["now"]), "\(l) clock now: \(clock)")
            let remaining = Int(ends.timeIntervalSince(now))
            await host.advanceClock(remaining - 61, "\(l) to 61 s before the session ends")
            expectReply(await till.validate("PAYMENT", amount: 1000), 204, nil, "\(l) validate with 61 s of session left")
            await host.advanceClock(5, "\(l) to 56 s before the session ends")
            expectReply(await till.validate("PAYMENT", amount: 1000), 409, "session_expiring", "\(l) validate with 56 s of session left")
            try await till.relogin()
            expectReply(await till.validate("PAYMENT", amount: 1000), 204, nil, "\(l) validate after logging in again")
        }
    }

    @Test("TransactionDetail: the seed's 37 keys, masked PAN, 6-digit authId, 12-digit RRN, AID/CID, currency and dates")
    func detailShape() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let merchant = try #require(host.fixture.merchant(owning: till.id)?.id)

            let sale = expectTransaction(
                try await till.pay("visa", amount: 1150, tip: 150, reference: "SHAPE-1"), 201, "CLEARED", "\(l) visa sale")
            let id = try #require(sale.transactionId)
            for (reply, step) in [(sale, "sale answer"), (await till.details(id), "details"), (await till.last(), "last")] {
                expectReply(reply, reply.status == 201 ? 201 : 200, nil, "\(l) \(step)")
                expectDetailShape(reply, "\(l) \(step)")
                #expect(reply.object.count == 37, "\(l) \(step): \(reply.object.count) keys, not 37")
                #expect(matches(reply.transactionId, #"^[0-9a-f-]{36}$"#), "\(l) \(step) transactionId: \(reply)")
                #expect(reply.string("cardNumber") == "476173******0011", "\(l) \(step) masked PAN: \(reply)")
                #expect(matches(reply.string("authId"), #"^\d{6}$"#), "\(l) \(step) authId: \(reply)")
                #expect(matches(reply.string("retrievalRefNum"), #"^\d{12}$"#), "\(l) \(step) RRN: \(reply)")
                #expect(reply.string("AID") == "A0000000031010", "\(l) \(step) AID: \(reply)")
                #expect(matches(reply.string("CID"), #"^[0-9A-F]{2}$"#), "\(l) \(step) CID: \(reply)")
                #expect(matches(reply.string("applicationCryptogram"), #"^[0-9A-F]{16}$"#), "\(l) \(step) cryptogram: \(reply)")
                #expect(reply.string("applicationLabel") == "VISA DEBIT", "\(l) \(step) applicationLabel: \(reply)")
                #expect(reply.string("cardType") == "VISA", "\(l) \(step) cardType: \(reply)")
                #expect(reply.string("transactionType") == "AUTH", "\(l) \(step) transactionType: \(reply)")
                #expect(reply.string("paymentMethod") == "CARD", "\(l) \(step) paymentMethod: \(reply)")
                #expect(reply.int("transactionAmount") == 1150 && reply.int("tipAmount") == 150, "\(l) \(step) amounts: \(reply)")
                #expect(reply.string("merchantId") == merchant && reply.string("terminalId") == till.id, "\(l) \(step) ids: \(reply)")
                #expect(reply.string("externalID") == "SHAPE-1", "\(l) \(step) externalID: \(reply)")
                #expect(currencyCode(reply["currency"]) == till.currency, "\(l) \(step) currency: \(reply)")
                #expect(parseTime(reply["transactionDate"]) != nil, "\(l) \(step) transactionDate: \(reply)")
                #expect(parseTime(reply["expiryDate"]) != nil, "\(l) \(step) expiryDate (card 2812): \(reply)")
                #expect(reply.bool("isReversalAvailable") == true, "\(l) \(step) isReversalAvailable: \(reply)")
                #expect(reply.bool("cancellable") == true, "\(l) \(step) cancellable: \(reply)")
                #expect(reply["transactionRetry"] is NSNumber, "\(l) \(step) transactionRetry: \(reply)")
            }
            let amex = expectTransaction(try await till.pay("amex", amount: 1000), 201, "CLEARED", "\(l) amex sale")
            #expect(amex.string("cardNumber") == "378282*****0005", "\(l) masked 15-digit PAN: \(amex)")
            let mc = expectTransaction(try await till.pay("mc", amount: 1000), 201, "CLEARED", "\(l) mc sale")
            #expect(mc.string("cardNumber") == "555555******0004", "\(l) masked mc PAN: \(mc)")
            #expect(mc.string("AID") == "A0000000041010", "\(l) mc AID: \(mc)")
            expectTransaction(try await till.pay("visa", amount: 4205), 201, "DECLINED", "\(l) declined sale")
        }
    }
}
