import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// BLIK payments through the SDK against a live sandbox (host + the wallet playing the customer's
/// bank): a code from the bank app, the confirmation request approved or declined through the
/// bank's API between two of the SDK's polls, which a ``SteppedClock`` releases (docs/blik.md).
/// Serialized for the same reason as the QR suite: each test runs a whole sandbox.
@Suite("SDK BLIK payments on a live sandbox", .serialized)
struct BlikPaymentTests {
    /// A phone registered and logged in on the mBank terminal, polling on `clock`.
    func blikPhone(_ sandbox: LiveSandbox, clock: SteppedClock, terminal: String = "MBANK-T0101", typedCode: String? = nil)
        async throws -> Phone
    {
        let phone = makePhone(sandbox)
        var configuration = phone.sdk.configuration
        configuration.apmClock = clock
        configuration.blikPayCode = typedCode
        phone.sdk.configure(configuration)
        try await registerAndPrepare(phone, on: terminal, in: sandbox, environment: .sandboxMBANK)
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

    /// Releases polls until the stream completes; answers the final transaction and what came before it.
    func completed(
        _ iterator: inout AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>.Iterator, clock: SteppedClock,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (APMTransaction, [String]) {
        let stepper = Task {
            while !Task.isCancelled {
                await clock.untilWaiting()
                if Task.isCancelled { break }
                clock.advance(by: 3)
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        defer { stepper.cancel() }
        var seen: [String] = []
        while true {
            switch try await next(&iterator, "a poll", sourceLocation: sourceLocation) {
            case .processing: seen.append("processing")
            case .completed(let final): return (final, seen)
            case let other: Issue.record("unexpected \(other)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The first event: `.processing` with the ONGOING payment, waiting for the customer.
    func processing(
        _ iterator: inout AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>.Iterator,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APMTransaction {
        let event = try await next(&iterator, "processing", sourceLocation: sourceLocation)
        guard case .processing(let payment) = event else {
            Issue.record("expected processing first, got \(event)", sourceLocation: sourceLocation)
            throw BackOfficeFailure(description: "no processing")
        }
        return payment
    }

    @Test("the seed's code rules are checked before any call: payCode required without a container, both nil with one")
    func codeRulesBeforeAnyCall() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blikPhone(sandbox, clock: clock)
            let sdk = phone.sdk
            let noCode = await collect(sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil))
            guard noCode.count == 1, case .failure(let missing) = noCode[0] else { Issue.record("\(noCode)"); return }
            #expect(missing == .validation(.invalidRequest) && missing.field == "payCode", "\(missing)")

            let container = await MainActor.run { UIViewController() }
            let both = await collect(
                sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, container: container, payCode: "777123"))
            guard both.count == 1, case .failure(let given) = both[0] else { Issue.record("\(both)"); return }
            #expect(given == .validation(.invalidRequest) && given.field == "payCode", "\(given)")
            let verification = await collect(
                sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, container: container, verificationCode: "1234"))
            guard verification.count == 1, case .failure(let extra) = verification[0] else { Issue.record("\(verification)"); return }
            #expect(extra == .validation(.invalidRequest) && extra.field == "verificationCode", "\(extra)")

            // Nothing reached the host: no BLIK transaction, and the terminal is free for a card sale.
            let history = try value(
                await sdk.fetchTransactionsHistory(
                    page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "", filterStatus: [], filterType: [], filterPaymentMethod: ["BLIK"]),
                "history")
            #expect(history.items.isEmpty, "\(history.items)")
            #expect(clock.waitCount == 0, "no poll began")
        }
    }

    @Test("a code from the bank app: processing while the customer decides, the request in the bank app, Approve: CLEARED, the balance moves")
    func approveInTheBankApp() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blikPhone(sandbox, clock: clock)
            let bank = Bank(sandbox)
            let before = try await bank.customer("jan")
            let code = try await bank.code(for: "jan")
            #expect(code.code.count == 6 && code.verificationCode == nil && code.expiresInSeconds == 120, "\(code)")

            var events = phone.sdk.doBlikPayment(requestedAmount: 4500, tipAmount: 500, reference: "BLIK-1", payCode: code.code)
                .makeAsyncIterator()
            let payment = try await processing(&events)
            #expect(payment.transactionStatus == .ONGOING && payment.paymentMethod == .BLIK && payment.brand == .BLIK, "\(payment)")
            #expect(payment.qrCode == nil && payment.transactionAmount == 4500 && payment.tipAmount == 500 && payment.externalID == "BLIK-1")
            let requests = try await bank.requests(for: "jan")
            #expect(requests.map { $0["orderId"] as? String } == [payment.transactionId], "the bank app asks Jan: \(requests)")
            #expect(requests.first?["amount"] as? Int == 4500, "\(requests)")
            let paid = try await bank.press("pay", payment.transactionId)
            #expect(paid["status"] as? String == "paid", "\(paid)")
            let (final, seen) = try await completed(&events, clock: clock)
            #expect(seen.isEmpty, "processing is told once: \(seen)")
            #expect(final.transactionStatus == .CLEARED && final.refundable == true, "\(final)")
            #expect(await events.next() == nil, "nothing after completed")
            #expect(try await bank.customer("jan").balance == before.balance - 4500, "the bank took 45.00 zł")
            #expect(try await bank.requests(for: "jan").isEmpty, "the request is answered")

            let detail = try value(await phone.sdk.fetchTransactionDetails(transactionId: final.transactionId), "details")
            #expect(detail.paymentMethod == .BLIK && detail.transactionStatus == .CLEARED, "\(detail)")
            #expect(try value(await phone.sdk.getLastTransaction(), "last").transactionId == final.transactionId)
            let blik = try value(
                await phone.sdk.fetchTransactionsHistory(
                    page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "", filterStatus: [], filterType: [], filterPaymentMethod: ["BLIK"]),
                "history")
            #expect(blik.items.map(\.transactionId) == [final.transactionId])
        }
    }

    @Test("the outcomes: declined with the reason picked, above the balance, above the limit, the CI codes; each completed once")
    func outcomes() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blikPhone(sandbox, clock: clock)
            let bank = Bank(sandbox)
            // The customer declines with a reason; Anna (50.00 zł) approves 60.00; Piotr (limit 500.00) approves 600.00.
            for (customer, amount, button, body, reason) in [
                ("jan", 1000, "decline", ["reason": "declined_by_customer"], "declined_by_customer"),
                ("anna", 6000, "pay", [:], "insufficient_funds"), ("piotr", 60000, "pay", [:], "limit_exceeded"),
            ] as [(String, Int, String, [String: Any], String)] {
                let before = try await bank.customer(customer).balance
                let code = try await bank.code(for: customer)
                var events = phone.sdk.doBlikPayment(requestedAmount: amount, tipAmount: nil, reference: nil, payCode: code.code)
                    .makeAsyncIterator()
                let payment = try await processing(&events)
                let answer = try await bank.press(button, payment.transactionId, body: body)
                #expect(answer["status"] as? String == "declined", "\(customer): \(answer)")
                let (final, _) = try await completed(&events, clock: clock)
                #expect(final.transactionStatus == .DECLINED && final.declineReason == reason, "\(customer): \(final)")
                #expect(final.toTransactionDetail().outcomeError == .transaction(.declined))
                #expect(try await bank.customer(customer).balance == before, "no money moved for \(customer)")
            }
            // The CI codes, no page involved: 777… approves by itself, 500051 declines, the 9-digit form approves.
            for (code, verification, status, reason) in [
                ("777321", nil, TransactionStatus.CLEARED, nil), ("500051", nil, .DECLINED, "insufficient_funds"),
                ("500096", nil, .DECLINED, "system_error"), ("777123456", "1234", .CLEARED, nil),
            ] as [(String, String?, TransactionStatus, String?)] {
                var events = phone.sdk.doBlikPayment(
                    requestedAmount: 2000, tipAmount: nil, reference: nil, payCode: code, verificationCode: verification
                ).makeAsyncIterator()
                _ = try await processing(&events)
                try await sandbox.advanceWalletClock(seconds: 3)
                let (final, _) = try await completed(&events, clock: clock)
                #expect(final.transactionStatus == status && final.declineReason == reason, "\(code): \(final)")
            }
        }
    }

    @Test("code-stage refusals fail at once, invalidPayCode with the bank's code, nothing stored; a code expires at 120 s")
    func codeRefusals() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blikPhone(sandbox, clock: clock)
            let bank = Bank(sandbox)
            let nine = try await bank.code(for: "jan", nine: true)
            #expect(nine.code.count == 9 && nine.verificationCode?.count == 4, "\(nine)")
            let wrong = nine.verificationCode == "0000" ? "1111" : "0000"
            let expiring = try await bank.code(for: "jan")
            for (code, verification, expected) in [
                ("123456", nil, "blik_code_unknown"), ("400410", nil, "blik_code_expired"), ("400409", nil, "blik_code_used"),
                ("12345", nil, "blik_code_invalid"), (nine.code, nil, "blik_code_invalid"), (nine.code, wrong, "blik_verification_failed"),
            ] as [(String, String?, String)] {
                let results = await collect(
                    phone.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: code, verificationCode: verification))
                guard results.count == 1, case .failure(let error) = results[0] else { Issue.record("\(code): \(results)"); continue }
                #expect(error == .transaction(.invalidPayCode) && error.code == expected, "\(code): \(error)")
            }
            // 120 s on the bank's clock: the code it issued is no longer good.
            try await sandbox.advanceWalletClock(seconds: 121)
            let late = await collect(phone.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: expiring.code))
            guard late.count == 1, case .failure(let expired) = late[0] else { Issue.record("\(late)"); return }
            #expect(expired == .transaction(.invalidPayCode) && expired.code == "blik_code_expired", "\(expired)")

            // None of them was stored, and the terminal is free: the next code pays.
            let history = try value(
                await phone.sdk.fetchTransactionsHistory(
                    page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "", filterStatus: [], filterType: [], filterPaymentMethod: ["BLIK"]),
                "history")
            #expect(history.items.isEmpty, "\(history.items)")
            var events = phone.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: "777000").makeAsyncIterator()
            _ = try await processing(&events)
        }
    }

    @Test("no answer: the bank expires the request after 60 s (TIMEOUT); blikTimeout on the host's clock ends it too; cancel is USER_CANCELLED")
    func timeoutsAndCancel() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blikPhone(sandbox, clock: clock)
            let bank = Bank(sandbox)
            let first = try await bank.code(for: "jan")
            var events = phone.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: first.code).makeAsyncIterator()
            let payment = try await processing(&events)
            try await sandbox.advanceWalletClock(seconds: 61)
            let (final, _) = try await completed(&events, clock: clock)
            #expect(final.transactionStatus == .TIMEOUT, "\(final)")
            let late = await bank.tryPress("pay", payment.transactionId)
            #expect(late.status == 409, "the request is closed: \(late)")

            // The CI code 500000 never answers: the host's blikTimeout (120 s) ends it.
            var silent = phone.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: "500000").makeAsyncIterator()
            _ = try await processing(&silent)
            try await sandbox.backOffice("MBANK").advanceClock(seconds: 121)
            await clock.untilWaiting()
            clock.advance(by: 200)
            guard case .completed(let timedOut) = try await next(&silent, "completed") else { Issue.record("not completed"); return }
            #expect(timedOut.transactionStatus == .TIMEOUT, "\(timedOut)")

            let third = try await bank.code(for: "jan")
            var cancelled = phone.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: third.code).makeAsyncIterator()
            let pending = try await processing(&cancelled)
            let answer = try value(await phone.sdk.cancelQRPayment(transactionId: pending.transactionId, reason: "customer left"), "cancel")
            #expect(answer.transactionStatus == .USER_CANCELLED)
            let (ended, _) = try await completed(&cancelled, clock: clock)
            #expect(ended.transactionStatus == .USER_CANCELLED)
            // The host closes the order at the wallet behind the cancel's answer (its courier, retried).
            #expect(await eventually { (try? await bank.requests(for: "jan").isEmpty) == true }, "the bank app no longer asks")
        }
    }

    @Test("the same code on two terminals at once: one payment, one blik_code_used")
    func twoTerminalRace() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let first = try await blikPhone(sandbox, clock: clock)
            let second = try await blikPhone(sandbox, clock: clock, terminal: "MBANK-T0103")
            let code = try await Bank(sandbox).code(for: "jan")
            async let a = firstEvent(first.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: code.code))
            async let b = firstEvent(second.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: code.code))
            let results = await [a, b]
            let made = results.filter { if case .success(.processing) = $0 { true } else { false } }
            let refused = results.compactMap { result -> TapOnMobileError? in if case .failure(let e) = result { e } else { nil } }
            #expect(made.count == 1 && refused.count == 1, "\(results)")
            #expect(refused.first?.code == "blik_code_used", "\(refused)")
        }
    }

    /// The first event of a stream (the stream is dropped after it).
    func firstEvent(_ stream: AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>) async -> Result<APMTransactionProcessEvent, TapOnMobileError>? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }

    @Test("refunds: partial then the rest, the balance back in the bank app; beyond the payment is refused; both spellings")
    func refunds() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blikPhone(sandbox, clock: clock)
            let sdk = phone.sdk
            let bank = Bank(sandbox)
            let before = try await bank.customer("jan").balance
            let code = try await bank.code(for: "jan")
            var events = sdk.doBlikPayment(requestedAmount: 3000, tipAmount: nil, reference: nil, payCode: code.code).makeAsyncIterator()
            let payment = try await processing(&events)
            try await bank.press("pay", payment.transactionId)
            #expect(try await completed(&events, clock: clock).0.transactionStatus == .CLEARED)
            #expect(try await bank.customer("jan").balance == before - 3000)
            for (amount, spelling) in [(1000, "doBlikRefund"), (2000, "doBlikefund")] {
                let stream = spelling == "doBlikRefund"
                    ? sdk.doBlikRefund(refundedTransactionId: payment.transactionId, refundAmount: amount, reference: "RMA-\(amount)")
                    : deprecatedRefund(sdk, payment.transactionId, amount)
                var refund = stream.makeAsyncIterator()
                guard case .processing(let sent) = try await next(&refund, "refund \(amount)") else { Issue.record("no processing"); return }
                #expect(sent.transactionType == .REFUND && sent.transactionStatus == .ONGOING && sent.paymentMethod == .BLIK, "\(sent)")
                let (done, _) = try await completed(&refund, clock: clock)
                #expect(done.transactionStatus == .CLEARED && done.transactionAmount == amount, "\(spelling): \(done)")
            }
            #expect(try await bank.customer("jan").balance == before, "the bank app shows the money back")
            let beyond = await collect(sdk.doBlikRefund(refundedTransactionId: payment.transactionId, refundAmount: 1, reference: nil))
            guard case .failure(let error)? = beyond.first, beyond.count == 1 else { Issue.record("\(beyond)"); return }
            #expect(error.category == .transaction, "\(error)")
        }
    }

    @available(*, deprecated)
    func deprecatedRefund(_ sdk: TapOnMobile, _ id: String, _ amount: Int) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        sdk.doBlikefund(refundedTransactionId: id, refundAmount: amount, reference: nil)
    }

    @Test("with a container the code is the one typed on the SDK's screen (blikPayCode); a terminal without BLIK is refused")
    func containerAndNotEnabled() async throws {
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blikPhone(sandbox, clock: clock, typedCode: "777555")
            let container = await MainActor.run { UIViewController() }
            var events = phone.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, container: container)
                .makeAsyncIterator()
            _ = try await processing(&events)
            try await sandbox.advanceWalletClock(seconds: 3)
            #expect(try await completed(&events, clock: clock).0.transactionStatus == .CLEARED)

            let off = try await blikPhone(sandbox, clock: clock, terminal: "MBANK-T0202")
            let refused = await collect(off.sdk.doBlikPayment(requestedAmount: 1000, tipAmount: nil, reference: nil, payCode: "777123"))
            guard refused.count == 1, case .failure(let error) = refused[0] else { Issue.record("\(refused)"); return }
            #expect(error == .transaction(.notAllowed) && error.code == "blik_not_enabled", "\(error)")
        }
    }
}

/// The wallet's bank app for a test: codes, requests, balances and its buttons, over its API.
struct Bank {
    let url: String

    init(_ sandbox: LiveSandbox) {
        url = sandbox.sandbox.wallet.url
    }

    func code(for customer: String, nine: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async throws -> WalletBlik.Code {
        let reply = await Service(name: "wallet", baseURL: url).call("POST", "/api/blik/codes", body: ["customerId": customer, "nine": nine])
        guard reply.status == 201 else {
            Issue.record("generate code: \(reply)", sourceLocation: sourceLocation)
            throw BackOfficeFailure(description: "generate code: \(reply)")
        }
        return try JSONDecoder().decode(WalletBlik.Code.self, from: Data(reply.text.utf8))
    }

    func customer(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> WalletBlik.Customer {
        let reply = await Service(name: "wallet", baseURL: url).call("GET", "/api/blik/customers/\(id)")
        guard reply.status == 200 else {
            Issue.record("customer: \(reply)", sourceLocation: sourceLocation)
            throw BackOfficeFailure(description: "customer: \(reply)")
        }
        return try JSONDecoder().decode(WalletBlik.Customer.self, from: Data(reply.text.utf8))
    }

    /// The customer's pending confirmation requests (wallet orders).
    func requests(for customer: String) async throws -> [[String: Any]] {
        let reply = await Service(name: "wallet", baseURL: url).call("GET", "/api/blik/customers/\(customer)/requests")
        guard reply.status == 200 else { throw BackOfficeFailure(description: "requests: \(reply)") }
        return reply.object["orders"] as? [[String: Any]] ?? []
    }

    /// "Approve" (`pay`) or "Decline" on a request; answers the order.
    @discardableResult
    func press(_ button: String, _ orderId: String, body: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [String: Any]
    {
        let reply = await tryPress(button, orderId, body: body)
        guard reply.status == 200 else {
            Issue.record("bank \(button): \(reply)", sourceLocation: sourceLocation)
            throw BackOfficeFailure(description: "bank \(button): \(reply)")
        }
        return reply.object
    }

    func tryPress(_ button: String, _ orderId: String, body: [String: Any] = [:]) async -> HTTPReply {
        await Service(name: "wallet", baseURL: url).call("POST", "/api/orders/\(orderId)/\(button)", body: body)
    }
}
