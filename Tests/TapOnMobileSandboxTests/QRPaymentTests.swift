import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// QR wallet payments through the SDK against a live sandbox (host + wallet simulator): the
/// customer's buttons are pressed through the wallet's API between two of the SDK's polls, which
/// a ``SteppedClock`` releases one at a time (docs/qr-payments.md). Serialized: each test runs a
/// whole sandbox, and several at once starve the other suites' real-time waits on two cores.
@Suite("SDK QR payments on a live sandbox", .serialized)
struct QRPaymentTests {
    /// A phone registered and logged in on `terminal`, polling on `clock`.
    func qrPhone(_ sandbox: LiveSandbox, clock: SteppedClock, terminal: String = "EU-T0101", brand: APMPaymentData.APMBrand? = nil)
        async throws -> Phone
    {
        let phone = makePhone(sandbox)
        var configuration = phone.sdk.configuration
        configuration.apmClock = clock
        configuration.qrBrand = brand
        phone.sdk.configure(configuration)
        try await registerAndPrepare(phone, on: terminal, in: sandbox, environment: .sandboxEU)
        return phone
    }

    /// The next event, or a recorded issue.
    func next(
        _ iterator: inout AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>.Iterator, _ step: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APMTransactionProcessEvent {
        switch await iterator.next() {
        case .success(let event)?: return event
        case .failure(let error)?:
            Issue.record("\(step): \(error)", sourceLocation: sourceLocation)
            throw error
        case nil:
            Issue.record("\(step): the stream ended", sourceLocation: sourceLocation)
            throw BackOfficeFailure(description: "\(step): ended")
        }
    }

    /// Releases polls (one every 50 ms of real time, so the wallet's own deliveries get a turn)
    /// until the stream completes; answers the final transaction.
    func stepUntilCompleted(
        _ iterator: inout AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>.Iterator, clock: SteppedClock,
        seen: inout [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APMTransaction {
        let stepper = Task {
            while !Task.isCancelled {
                await clock.untilWaiting()
                if Task.isCancelled { break }
                clock.advance(by: 5)
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        defer { stepper.cancel() }
        while true {
            let event = try await next(&iterator, "a poll", sourceLocation: sourceLocation)
            switch event {
            case .processing: seen.append("processing")
            case .completed(let final):
                seen.append("completed")
                return final
            default:
                Issue.record("unexpected \(event)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("approve: brands, the QR of the wallet's pay page, processing once scanned, CLEARED; the detail and the history agree")
    func approve() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await qrPhone(sandbox, clock: clock)
            let sdk = phone.sdk
            let wallet = Wallet(sandbox)
            var events = sdk.doQRPayment(requestedAmount: 1250, tipAmount: 150, reference: "QR-1").makeAsyncIterator()
            #expect(try await next(&events, "brands") == .displayBrands([.ALIPAY, .WECHATPAY, .PAYCONIQ]))
            guard case .displayQR(let order) = try await next(&events, "QR") else { Issue.record("no displayQR"); return }
            #expect(order.transactionStatus == .NEW && order.brand == .ALIPAY && order.paymentMethod == .QRCODE, "\(order)")
            #expect(order.transactionAmount == 1250 && order.tipAmount == 150 && order.externalID == "QR-1")
            #expect(order.qrCode == wallet.url + "/pay/" + order.transactionId, "\(order.qrCode ?? "")")
            #expect(order.qrCodeSVG?.hasPrefix("<svg") == true)

            // The customer opens the page: the next poll reads ONGOING, once.
            try await wallet.press("scan", order.transactionId)
            var seen: [String] = []
            await clock.untilWaiting()
            clock.advance(by: 5)
            guard case .processing(let scanned) = try await next(&events, "processing") else { Issue.record("no processing"); return }
            #expect(scanned.transactionStatus == .ONGOING)
            // One more poll that still reads ONGOING, before the customer pays: no second `processing`.
            await clock.untilWaiting()
            let waits = clock.waitCount
            clock.advance(by: 5)
            await clock.untilWaiting(after: waits)
            let paid = try await wallet.press("pay", order.transactionId)
            #expect(paid["status"] as? String == "paid", "\(paid)")
            let final = try await stepUntilCompleted(&events, clock: clock, seen: &seen)
            #expect(seen == ["completed"], "processing is told once: \(seen)")
            #expect(final.transactionStatus == .CLEARED && final.providerReference != nil && final.refundable == true, "\(final)")
            let end = await events.next()
            #expect(end == nil, "nothing after completed")

            // The conversion is the host's own detail; the history filtered by QRCODE holds it alone.
            let detail = try value(await sdk.fetchTransactionDetails(transactionId: final.transactionId), "details")
            #expect(final.toTransactionDetail() == detail, "\(final.toTransactionDetail())\n\(detail)")
            #expect(try value(await sdk.getLastTransaction(), "last").transactionId == final.transactionId)
            await sdk.reader.present(.tap(card("visa")))
            _ = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 900, reference: nil), "a card sale")
            let qr = try value(
                await sdk.fetchTransactionsHistory(
                    page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "", filterStatus: [], filterType: [], filterPaymentMethod: ["QRCODE"]),
                "history")
            #expect(qr.items.map(\.transactionId) == [final.transactionId], "\(qr.items)")
            let cards = try value(
                await sdk.fetchTransactionsHistory(
                    page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "", filterStatus: [], filterType: [], filterPaymentMethod: ["CARD"]),
                "history")
            #expect(!cards.items.contains { $0.transactionId == final.transactionId })
        }
    }

    @Test("decline with a reason, and the wallet's expire: completed with DECLINED and its reason, then TIMEOUT")
    func declineAndWalletExpire() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await qrPhone(sandbox, clock: clock, brand: .WECHATPAY)
            let wallet = Wallet(sandbox)
            for (button, body, status, reason) in [
                ("decline", ["reason": "insufficient_funds"], TransactionStatus.DECLINED, "insufficient_funds"), ("expire", [:], .TIMEOUT, nil),
            ] as [(String, [String: Any], TransactionStatus, String?)] {
                var events = phone.sdk.doQRPayment(requestedAmount: 1000, tipAmount: nil, reference: nil).makeAsyncIterator()
                _ = try await next(&events, "brands")
                guard case .displayQR(let order) = try await next(&events, "QR") else { Issue.record("no displayQR"); return }
                #expect(order.brand == .WECHATPAY)
                try await wallet.press(button, order.transactionId, body: body)
                var seen: [String] = []
                let final = try await stepUntilCompleted(&events, clock: clock, seen: &seen)
                #expect(final.transactionStatus == status && final.declineReason == reason, "\(button): \(final)")
                if status == .DECLINED { #expect(final.responseCode == "51" && final.toTransactionDetail().outcomeError == .transaction(.declined)) }
            }
        }
    }

    @Test("the host's apmTimeout: moved by the clock, the order ends TIMEOUT and a late payment is refused")
    func hostExpiry() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await qrPhone(sandbox, clock: clock)
            let wallet = Wallet(sandbox)
            var events = phone.sdk.doQRPayment(requestedAmount: 1100, tipAmount: nil, reference: nil).makeAsyncIterator()
            _ = try await next(&events, "brands")
            guard case .displayQR(let order) = try await next(&events, "QR") else { Issue.record("no displayQR"); return }
            try await sandbox.backOffice("EU").advanceClock(seconds: 301)
            await clock.untilWaiting()
            clock.advance(by: 400)
            guard case .completed(let final) = try await next(&events, "completed") else { Issue.record("not completed"); return }
            #expect(final.transactionStatus == .TIMEOUT, "\(final)")
            // The host closes the expired order at the wallet behind its answer to the device (its courier, retried).
            #expect(await eventually { await wallet.status(order.transactionId) == "closed" }, "the wallet's order is closed")
            let late = await wallet.tryPress("pay", order.transactionId)
            #expect(late.status == 409 || (late.object["status"] as? String) == "refused", "\(late)")
            let detail = try value(await phone.sdk.fetchTransactionDetails(transactionId: order.transactionId), "details")
            #expect(detail.transactionStatus == .TIMEOUT)
        }
    }

    @Test("cancel ends a pending order as USER_CANCELLED; after payment it is refused: apm_already_paid")
    func cancel() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await qrPhone(sandbox, clock: clock)
            let sdk = phone.sdk
            let wallet = Wallet(sandbox)
            var events = sdk.doQRPayment(requestedAmount: 1200, tipAmount: nil, reference: nil).makeAsyncIterator()
            _ = try await next(&events, "brands")
            guard case .displayQR(let order) = try await next(&events, "QR") else { Issue.record("no displayQR"); return }
            let cancelled = try value(await sdk.cancelQRPayment(transactionId: order.transactionId, reason: "customer left"), "cancel")
            #expect(cancelled.transactionStatus == .USER_CANCELLED && cancelled.transactionId == order.transactionId)
            var seen: [String] = []
            let final = try await stepUntilCompleted(&events, clock: clock, seen: &seen)
            #expect(final.transactionStatus == .USER_CANCELLED)
            // The host closes the order at the wallet behind the cancel's answer (its courier, retried).
            #expect(await eventually { await wallet.status(order.transactionId) == "closed" }, "the wallet's order is closed")
            let late = await wallet.tryPress("pay", order.transactionId)
            #expect(late.status == 409, "the wallet's order is closed: \(late)")

            var second = sdk.doQRPayment(requestedAmount: 1300, tipAmount: nil, reference: nil).makeAsyncIterator()
            _ = try await next(&second, "brands")
            guard case .displayQR(let other) = try await next(&second, "QR") else { Issue.record("no displayQR"); return }
            try await wallet.press("pay", other.transactionId)
            let refused = try failure(await sdk.cancelQRPayment(transactionId: other.transactionId), "cancel after paid")
            #expect(refused == .transaction(.notCancellable) && refused.code == "apm_already_paid", "\(refused)")
            #expect(try await stepUntilCompleted(&second, clock: clock, seen: &seen).transactionStatus == .CLEARED)
        }
    }

    @Test("partial refunds up to the payment, then one beyond it is refused; both spellings refund")
    func refunds() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await qrPhone(sandbox, clock: clock)
            let sdk = phone.sdk
            let wallet = Wallet(sandbox)
            var events = sdk.doQRPayment(requestedAmount: 1000, tipAmount: nil, reference: nil).makeAsyncIterator()
            _ = try await next(&events, "brands")
            guard case .displayQR(let order) = try await next(&events, "QR") else { Issue.record("no displayQR"); return }
            try await wallet.press("pay", order.transactionId)
            var seen: [String] = []
            #expect(try await stepUntilCompleted(&events, clock: clock, seen: &seen).transactionStatus == .CLEARED)

            for (amount, spelling) in [(600, "doQRRefund"), (400, "doQRefund")] {
                let stream: AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> =
                    spelling == "doQRRefund"
                    ? sdk.doQRRefund(refundedTransactionId: order.transactionId, refundAmount: amount, reference: "RMA-\(amount)")
                    : sdk.doQRefund(refundedTransactionId: order.transactionId, refundAmount: amount, reference: "RMA-\(amount)")
                var refund = stream.makeAsyncIterator()
                guard case .processing(let sent) = try await next(&refund, "refund \(amount)") else { Issue.record("no processing"); return }
                #expect(sent.transactionType == .REFUND && sent.transactionStatus == .ONGOING && sent.refundedTransactionId == order.transactionId)
                var refundSeen: [String] = []
                let done = try await stepUntilCompleted(&refund, clock: clock, seen: &refundSeen)
                #expect(done.transactionStatus == .CLEARED && done.transactionAmount == amount, "\(spelling): \(done)")
            }
            let beyond = await collect(sdk.doQRRefund(refundedTransactionId: order.transactionId, refundAmount: 1, reference: nil))
            guard case .failure(let error)? = beyond.first, beyond.count == 1 else { Issue.record("\(beyond)"); return }
            #expect(error == .transaction(.invalidAmount) || error == .transaction(.notRefundable) || error == .transaction(.alreadyRefunded), "\(error)")
        }
    }

    @Test("a terminal without APMs fails at once with apm_not_enabled, before any brand or order")
    func notEnabled() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await qrPhone(sandbox, clock: clock, terminal: "EU-T0201")
            let results = await collect(phone.sdk.doQRPayment(requestedAmount: 1000, tipAmount: nil, reference: nil))
            guard results.count == 1, case .failure(let error) = results[0] else { Issue.record("\(results)"); return }
            #expect(error == .transaction(.notAllowed) && error.code == "apm_not_enabled", "\(error)")
            #expect(clock.waitCount == 0)
        }
    }
}

/// The wallet simulator's customer API: the pay page's buttons for a test.
struct Wallet {
    let url: String

    init(_ sandbox: LiveSandbox) {
        url = sandbox.sandbox.wallet.url
    }

    /// Presses `button` (`scan`, `pay`, `decline`, `expire`) and answers the order.
    @discardableResult
    func press(_ button: String, _ orderId: String, body: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [String: Any]
    {
        let reply = await tryPress(button, orderId, body: body)
        guard reply.status == 200 else {
            Issue.record("wallet \(button): \(reply)", sourceLocation: sourceLocation)
            throw BackOfficeFailure(description: "wallet \(button): \(reply)")
        }
        return reply.object
    }

    func tryPress(_ button: String, _ orderId: String, body: [String: Any] = [:]) async -> HTTPReply {
        await Service(name: "wallet", baseURL: url).call("POST", "/api/orders/\(orderId)/\(button)", body: body)
    }

    /// The order's status at the wallet (`pending`, `paid`, `closed` …); nil when it cannot be read.
    func status(_ orderId: String) async -> String? {
        await Service(name: "wallet", baseURL: url).call("GET", "/api/orders/\(orderId)").object["status"] as? String
    }
}
