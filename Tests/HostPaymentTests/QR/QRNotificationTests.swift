import Foundation
import HostTestSupport
import SandboxWire
import Synchronization
import SandboxTestSupport
import Testing

/// What the wallet notifies, signed, and what the host makes of it: the outcome the device polls,
/// the merchant's webhook, and the deadlines the host keeps by its clock.
@Suite("QR payments: the wallet's notifications and the host's deadline")
struct QRNotificationTests {
    @Test("scanned → ONGOING, paid → CLEARED with the wallet's payment id and the payment.succeeded webhook (QRCODE, its brand)")
    func scannedThenPaid() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(2500, "order")
        expectReply(try await counter.notify(.orderScanned, order: id), 204, nil, "scanned")
        let scanned = expectReply(await counter.poll(id), 200, nil, "poll after the scan")
        #expect(scanned.string("transactionStatus") == "ONGOING", "\(scanned)")
        #expect(await counter.webhooks(of: id).isEmpty, "a scan is no final outcome")
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "wpay_1"), 204, nil, "paid")
        let paid = expectReply(await counter.poll(id), 200, nil, "poll after the payment")
        #expect(paid.string("transactionStatus") == "CLEARED" && paid.string("providerReference") == "wpay_1", "\(paid)")
        #expect(paid.string("responseCode") == "00" && paid["refundable"] as? Bool == true, "\(paid)")
        let hooks = await counter.webhooks(of: id)
        #expect(hooks.map(\.type) == ["payment.succeeded"], "\(hooks.map(\.type))")
        let data = try #require(hooks.first?.payload)
        #expect(data["paymentMethod"] as? String == "QRCODE" && data["cardBrand"] as? String == "ALIPAY", "\(data)")
        #expect(data["status"] as? String == "CLEARED" && data["amount"] as? Int == 2500 && data["last4"] is NSNull, "\(data)")
        expectReply(await counter.cancel(id), 409, "apm_already_paid", "cancel after the payment")
    }

    @Test("declined with each reason: DECLINED with its declineReason and the reason's response code and message", arguments: APMDeclineReason.allCases)
    func declined(reason: APMDeclineReason) async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        expectReply(try await counter.notify(.orderDeclined, order: id, reason: reason.rawValue), 204, nil, "declined \(reason)")
        let reply = expectReply(await counter.poll(id), 200, nil, "poll")
        #expect(reply.string("transactionStatus") == "DECLINED" && reply.string("declineReason") == reason.rawValue, "\(reply)")
        #expect(reply.string("responseCode") == reason.response.code && reply.string("responseMsg") == reason.response.message, "\(reply)")
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.failed"])
    }

    @Test("a decline without a known reason is 400 invalid_request and changes nothing")
    func declineNeedsAReason() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        expectReply(try await counter.notify(.orderDeclined, order: id), 400, "invalid_request", "no reason")
        expectReply(try await counter.notify(.orderDeclined, order: id, reason: "bored"), 400, "invalid_request", "an unknown reason")
        #expect(expectReply(await counter.poll(id), 200, nil, "poll").string("transactionStatus") == "NEW")
    }

    @Test("the wallet lets the order expire: TIMEOUT with payment.failed, and no close is sent back")
    func walletExpired() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        expectReply(try await counter.notify(.orderExpired, order: id), 204, nil, "expired at the wallet")
        #expect(expectReply(await counter.poll(id), 200, nil, "poll").string("transactionStatus") == "TIMEOUT")
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.failed"])
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "late"), 409, "apm_order_closed", "paid after it expired")
        #expect(counter.wallet.log.closes.isEmpty, "\(counter.wallet.log.closes)")
    }

    @Test("apmTimeout by the clock: TIMEOUT and its webhook with nobody polling, the order closed at the wallet, a late payment refused")
    func hostDeadline() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        expectReply(try await counter.notify(.orderScanned, order: id), 204, nil, "scanned")
        // The sandbox clock also runs with real time: a minute's margin for a loaded machine.
        await counter.advance(240, "four minutes in")
        #expect(await counter.webhooks(of: id).isEmpty, "still open at 240 s")
        #expect(expectReply(await counter.poll(id), 200, nil, "poll at 240 s").string("transactionStatus") == "ONGOING")
        await counter.advance(61, "past apmTimeout")
        // The clock move applied the deadline: the webhook and the close, before any poll.
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.failed"], "the expiry webhook is written at the clock move")
        #expect(await eventually { counter.wallet.log.closes.contains { $0.order == id && $0.reason == "expired" } }, "\(counter.wallet.log.closes)")
        let late = expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "late"), 409, "apm_order_closed", "paid too late")
        #expect(late.errorCode == "apm_order_closed")
        let reply = expectReply(await counter.poll(id), 200, nil, "poll")
        #expect(reply.string("transactionStatus") == "TIMEOUT" && reply.string("providerReference") == nil, "\(reply)")
        expectReply(await counter.pay(1000), 201, nil, "the terminal is free again")
    }

    @Test("a notification that arrives after the deadline, before any sweep: the deadline is applied first and the payment refused")
    func lateNotificationAppliesTheDeadline() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        // Moved directly, not over HTTP: no sweep ran.
        counter.running.clock.advance(by: 301)
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "late"), 409, "apm_order_closed", "paid after apmTimeout")
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.failed"], "the TIMEOUT stays, with its webhook")
    }

    @Test("a repeated notification id changes nothing: one outcome, one webhook")
    func duplicates() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "p1", id: "ntf_once"), 204, nil, "paid")
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "p1", id: "ntf_once"), 204, nil, "paid again (a retry)")
        expectReply(
            try await counter.notify(.orderDeclined, order: id, reason: "system_error", id: "ntf_once"), 204, nil,
            "another body under the same id")
        #expect(expectReply(await counter.poll(id), 200, nil, "poll").string("transactionStatus") == "CLEARED")
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.succeeded"])
    }

    @Test("signatures: a forged one, another region's, none, a stale one are 401 provider_signature_invalid; an unknown order 404")
    func signatures() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        let note = counter.wallet.notification(.orderPaid, order: id, paymentId: "forged")
        func post(_ signed: (body: String, headers: [(String, String)])) async -> HTTPReply {
            await counter.service.call("POST", "/provider/v1/notifications", raw: signed.body, headers: signed.headers)
        }
        expectReply(await post(try counter.wallet.signed(note, secret: "wsec_guessed")), 401, "provider_signature_invalid", "a forged signature")
        let anz = "wsec_anz_2b8e6d4f1a3c5097"
        expectReply(
            await post(try counter.wallet.signed(note, secret: anz, region: "ANZ")), 401, "provider_signature_invalid",
            "ANZ's secret and region")
        expectReply(
            await post(try counter.wallet.signed(note, secret: anz)), 401, "provider_signature_invalid", "ANZ's secret under EU")
        expectReply(
            await post(try counter.wallet.signed(note, timestamp: Int(Date().timeIntervalSince1970) - 1000)), 401,
            "provider_signature_invalid", "signed 1000 s ago")
        expectReply(
            await counter.service.call("POST", "/provider/v1/notifications", raw: try counter.wallet.signed(note).body),
            401, "provider_signature_invalid", "unsigned")
        // A signed body that is tampered with after signing.
        var tampered = try counter.wallet.signed(note)
        tampered.body = tampered.body.replacingOccurrences(of: "forged", with: "forgeD")
        expectReply(await post(tampered), 401, "provider_signature_invalid", "a body changed after signing")
        #expect(expectReply(await counter.poll(id), 200, nil, "poll").string("transactionStatus") == "NEW", "none of them paid it")
        expectReply(try await counter.notify(.orderPaid, order: "no-such-order"), 404, "transaction_not_found", "an unknown order")
        expectReply(
            await post((body: "{\"id\": 1}", headers: try counter.wallet.signed(note).headers)), 401, "provider_signature_invalid",
            "a signature of another body")
        // The request journal keeps them under the provider surface, with their codes.
        let journal = expectReply(
            await counter.service.call("GET", "/backoffice/v1/requests?surface=provider&limit=100", bearer: counter.backOfficeKey), 200, nil,
            "the journal's provider surface")
        let codes = journal.objects("requests").compactMap { $0["errorCode"] as? String }
        #expect(codes.filter { $0 == "provider_signature_invalid" }.count == 7 && codes.contains("transaction_not_found"), "\(journal)")
    }

    @Test("cancel and payment at the same moment, 50 times: exactly one wins, the other hears why")
    func cancelPaidRace() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        var wins = (cancel: 0, paid: 0)
        for round in 0..<50 {
            let id = try await counter.order(1000 + round, "order \(round)")
            let note = counter.wallet.notification(.orderPaid, order: id, paymentId: "race-\(round)")
            let (body, headers) = try counter.wallet.signed(note)
            let service = counter.service
            let token = counter.token
            let replies = Mutex<[Int: HTTPReply]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                let reply =
                    side == 0
                    ? service.call("POST", "/terminal/v1/apm/transactions/\(id)/cancel", bearer: token, body: [:])
                    : service.call("POST", "/provider/v1/notifications", raw: body, headers: headers)
                replies.withLock { $0[side] = reply }
            }
            let cancel = try #require(replies.withLock { $0[0] })
            let paid = try #require(replies.withLock { $0[1] })
            let final = expectReply(await counter.poll(id), 200, nil, "poll round \(round)").string("transactionStatus")
            if cancel.status == 200 {
                wins.cancel += 1
                #expect(paid.status == 409 && paid.errorCode == "apm_order_closed", "round \(round): \(paid)")
                #expect(final == "USER_CANCELLED", "round \(round)")
            } else {
                wins.paid += 1
                #expect(paid.status == 204, "round \(round): \(paid)")
                #expect(cancel.status == 409 && cancel.errorCode == "apm_already_paid", "round \(round): \(cancel)")
                #expect(final == "CLEARED", "round \(round)")
                // The next round needs the terminal free: a paid order is final already.
            }
            let hooks = await counter.webhooks(of: id)
            #expect(hooks.count == 1, "round \(round): one outcome, one webhook: \(hooks.map(\.type))")
        }
        #expect(wins.cancel + wins.paid == 50)
    }
}
