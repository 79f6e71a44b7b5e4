import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Card payments through the SDK and the simulated reader, against a live sandbox.
@Suite("SDK card payments on a live sandbox")
struct PaymentTests {
    @Test("EU: approve, PIN on the reader, DCC, decline, busy, refund, reversal, history, statistics, receipts, validate, reader test")
    func cardPaymentsOnEU() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let reader = sdk.reader

            // A Visa tap, approved; the sealed payload's readAt is on the host's clock (the reader's is months behind).
            await reader.present(.tap(card("visa")))
            let (events, approved) = try await transaction(
                sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: "ORDER-77"), "visa")
            #expect(events == [.displayingCardReader, .processing, .finishProcessing, .completed(approved)])
            #expect(approved.transactionStatus == .CLEARED && approved.responseCode == "00", "\(approved)")
            #expect(approved.AID == "A0000000031010" && approved.CID == "40" && approved.cardType == "VISA")
            #expect(approved.cardNumber == card("visa").maskedPan && approved.currency?.code == "EUR")
            #expect(approved.externalID == "ORDER-77" && approved.cancellable && approved.outcomeError == nil)
            #expect(try value(await sdk.getLastTransaction(), "getLastTransaction").transactionId == approved.transactionId)

            // An online-PIN card sent without its PIN: the host asks, the customer types it on the reader.
            await reader.present(.tap(card("mc-pin"), pin: .deferred))
            let (_, pinned) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 2200, reference: nil), "mc-pin")
            #expect(pinned.transactionStatus == .CLEARED && pinned.cardType == "MASTERCARD" && pinned.transactionRetry == 1, "\(pinned)")
            // Magic amount 42.65 asks a Visa for its PIN too.
            await reader.present(.tap(card("visa")))
            let (_, soft) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 4265, reference: nil), "magic 42.65")
            #expect(soft.transactionStatus == .CLEARED && soft.responseCode == "00", "\(soft)")

            // A US card on a DCC region stops at DCC_REQUIRED; the terminal is busy until the customer chooses.
            await reader.present(.tap(card("visa-us-dcc")))
            let (_, offer) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 2000, reference: nil), "dcc")
            #expect(offer.transactionStatus == .DCC_REQUIRED && offer.dccStatus == .OFFERED, "\(offer)")
            #expect(offer.dccCurrency?.code == "USD" && (offer.dccAmount ?? 0) > 0 && offer.outcomeError == nil)
            // The host says busy when the SDK validates, before the card screen opens: no card is read.
            let busy = await collect(sdk.doPayment(currency: "EUR", requestedAmount: 500, reference: nil))
            #expect(busy == [.failure(.transaction(.busy))], "\(busy)")
            let finished = try value(await sdk.doMakeTransactionFinishDCC(transactionId: nil, dccOfferAccepted: true), "finish DCC")
            #expect(finished.transactionId == offer.transactionId)
            #expect(finished.transactionStatus == .CLEARED && finished.dccStatus == .ACCEPTED, "\(finished)")

            // A decline by magic amount completes with the declined detail.
            await reader.present(.tap(card("visa")))
            let (_, declined) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 4251, reference: nil), "decline")
            #expect(declined.transactionStatus == .DECLINED && declined.responseCode == "51", "\(declined)")
            #expect(declined.outcomeError == .transaction(.declined) && declined.outcomeError?.exitCode == 14)

            // Refund: sale A, then sale B, so A can no longer be reversed (B can).
            await reader.present(.tap(card("visa")))
            let (_, saleA) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 3000, reference: nil), "sale A")
            await reader.present(.tap(card("visa")))
            let (_, saleB) = try await transaction(
                sdk.doPayment(currency: "EUR", requestedAmount: 1500, reference: nil, tipAmount: 100), "sale B")
            #expect(saleB.tipAmount == 100)
            // Refused when the SDK validates, before the card screen: no card is read.
            let stillCancellable = await collect(
                sdk.doRefund(currency: "EUR", requestedAmount: 1500, transactionId: saleB.transactionId, reference: nil))
            #expect(stillCancellable == [.failure(.transaction(.stillCancellable))], "\(stillCancellable)")
            await reader.present(.tap(card("visa")))
            let (_, refund) = try await transaction(
                sdk.doRefund(currency: "EUR", requestedAmount: 3000, transactionId: saleA.transactionId, reference: nil), "refund A")
            #expect(refund.transactionType == .REFUND && refund.transactionStatus == .CLEARED, "\(refund)")
            #expect(refund.refundedTransactionId == saleA.transactionId)
            let refundedA = try value(await sdk.fetchTransactionDetails(transactionId: saleA.transactionId), "details A")
            #expect(refundedA.transactionStatus == .REFUNDED && refundedA.refundedDate != nil)
            #expect(try value(await sdk.getLastTransaction(), "last after refund").transactionId == refund.transactionId)

            // Reversal: only the latest sale.
            #expect(try failure(await sdk.doReversal(transactionId: saleA.transactionId), "reverse A") == .transaction(.notCancellable))
            let reversed = try value(await sdk.doReversal(transactionId: saleB.transactionId), "reverse B")
            #expect(reversed.transactionStatus == .CANCELLED)
            #expect(try value(await sdk.fetchTransactionDetails(transactionId: saleB.transactionId), "details B").transactionStatus == .CANCELLED)

            // History, count and details.
            let all = [approved, pinned, soft, finished, declined, saleA, saleB, refund]
            let page = try value(
                await sdk.fetchTransactionsHistory(page: 1, itemsPerPage: 50, dateFrom: "", dateTo: "", filterStatus: [], filterType: []),
                "history")
            #expect(page.total == all.count && page.count == all.count, "\(page.map(\.transactionStatus))")
            #expect(Set(page.map(\.transactionId)) == Set(all.map(\.transactionId)))
            #expect(page.first?.transactionId == refund.transactionId, "newest first")
            let yesterday = WireTime.iso(Date().addingTimeInterval(-86_400)), tomorrow = WireTime.iso(Date().addingTimeInterval(86_400))
            let cleared = try value(
                await sdk.fetchTransactionsHistory(
                    page: 1, itemsPerPage: 2, dateFrom: yesterday, dateTo: tomorrow, filterStatus: ["CLEARED"], filterType: ["AUTH"]),
                "cleared sales, 2 per page")
            #expect(cleared.count == 2 && cleared.total == 4 && cleared.allSatisfy { $0.transactionStatus == .CLEARED })
            #expect(try value(
                await sdk.fetchTransactionsCount(page: 1, itemsPerPage: 50, dateFrom: "", dateTo: "", filterStatus: ["DECLINED"], filterType: []),
                "count declined") == TransactionsCount(count: 1))
            #expect(try value(await sdk.fetchTransactionDetails(reference: "ORDER-77"), "details by reference").transactionId == approved.transactionId)
            #expect(try failure(await sdk.fetchTransactionDetails(transactionId: "no-such-id"), "unknown id") == .transaction(.notFound))

            // Statistics: approved sales (cleared or refunded later), per day and per brand.
            let sold = [approved, pinned, soft, finished, saleA]   // saleB was reversed, the decline never approved
            let daily = try value(
                await sdk.getTransactionsStatistics(fromDate: Date().addingTimeInterval(-86_400), toDate: Date().addingTimeInterval(86_400), statisticsType: .daily),
                "daily statistics")
            #expect(daily.flatMap(\.items).map(\.amount).reduce(0, +) == sold.map(\.transactionAmount).reduce(0, +), "\(daily)")
            #expect(daily.flatMap(\.items).compactMap(\.count).reduce(0, +) == sold.count)
            let brands = try value(
                await sdk.getTransactionsStatistics(fromDate: Date().addingTimeInterval(-86_400), toDate: Date().addingTimeInterval(86_400), statisticsType: .brand),
                "brand statistics")
            #expect(Set(brands.map(\.description)) == ["MASTERCARD", "VISA"])

            // Digital receipts: a QR link to a receipt page, and an e-mail in the sandbox mailbox.
            let qr = try value(await sdk.getDigitalReceipt(from: approved.transactionId, receiptType: .qrCode, email: nil), "QR receipt")
            #expect(qr.status == .GENERATED)
            let link = try #require(qr.url.flatMap(URL.init(string:)))
            #expect(link.path.hasPrefix("/receipts/"))
            let receiptPage = await Service(baseURL: "").fetch(link.absoluteString)
            #expect(receiptPage.status == 200 && receiptPage.text.contains("<html"), "\(receiptPage)")
            let mail = try value(
                await sdk.getDigitalReceipt(from: approved.transactionId, receiptType: .email, email: "customer@example.com"), "e-mail receipt")
            #expect(mail == ReceiptConfirmation(status: .SENT, url: nil))
            let messages = try await sandbox.backOffice("EU").mailbox()
            #expect(messages.first?["to"] as? String == "customer@example.com")
            #expect((messages.first?["subject"] as? String)?.contains(approved.transactionId) == true, "\(messages.first ?? [:])")

            // Validate before a transaction.
            _ = try value(await sdk.validateTransaction(transactionServiceType: .payment, requestedAmount: 1000, validate: nil), "validate payment")
            _ = try value(await sdk.validateTransaction(transactionServiceType: .refund, requestedAmount: 1000, validate: nil), "validate refund")
            _ = try value(await sdk.validateTransaction(transactionServiceType: .reversal, requestedAmount: nil, validate: nil), "validate reversal")
            let over = try failure(
                await sdk.validateTransaction(transactionServiceType: .payment, requestedAmount: 2_000_000, validate: nil), "over the limit")
            #expect(over == .transaction(.invalidAmount) && over.code == "amount_over_limit", "\(over)")
            // The same rule stops a payment before the card screen.
            let refused = await collect(sdk.doPayment(currency: "EUR", requestedAmount: 2_000_000, reference: nil))
            #expect(refused.count == 1 && refused.first == .failure(.transaction(.invalidAmount)), "\(refused)")

            // Contactless reader test: a tap passes, no tap fails.
            await reader.present(.tap(card("visa")))
            let test = await collect(sdk.doCardReaderTest(currency: "EUR"))
            #expect(test == [.success(.displayingCardReader), .success(.processing), .success(.completed(true))])
            await reader.present(.noTap())
            #expect(await collect(sdk.doCardReaderTest(currency: "EUR")).last == .success(.completed(false)))

            // A customer who cancels the card screen: the host records USER_CANCELLED.
            await reader.present(.cancel(after: 3))
            let (_, cancelled) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 900, reference: nil), "cancel")
            #expect(cancelled.transactionStatus == .USER_CANCELLED && cancelled.outcomeError == .transaction(.userCancelled))
        }
    }

    @Test("mBank: token-registered device, cards picked by the card-script provider, PLN sale, DCC declined, refund, reversal")
    func cardPaymentsOnMBANK() async throws {
        try await withSandbox { sandbox in
            let requests = RequestLog()
            let phone = makePhone(sandbox, cardScripts: { request in
                requests.append(request)
                return request.amount == 4000 ? .tap(card("mc-gb-dcc")) : .tap(card(request.operation == .refund ? "mc-pl" : "visa-pl"))
            })
            let sdk = phone.sdk
            _ = try value(await sdk.initialization(environment: .sandboxMBANK), "initialization")
            let token = try await sandbox.backOffice("MBANK").registrationToken(terminal: "MBANK-T0203")
            #expect(try value(await sdk.verifyRegistrationToken(registrationToken: token), "verify") == true)
            _ = try value(await sdk.beginTokenRegistration(registrationToken: token), "begin")
            _ = try value(await sdk.endTokenRegistration(registrationToken: token, pin: "8642"), "end")
            _ = try value(await sdk.doLogin(pin: "8642"), "login")
            _ = try value(await sdk.prepareDeviceAndWait(), "prepare")

            let (_, saleA) = try await transaction(sdk.doPayment(currency: "PLN", requestedAmount: 12_000, reference: nil), "sale A")
            #expect(saleA.transactionStatus == .CLEARED && saleA.currency?.code == "PLN" && saleA.cardType == "VISA", "\(saleA)")
            let (_, offer) = try await transaction(sdk.doPayment(currency: "PLN", requestedAmount: 4000, reference: nil), "GB card")
            #expect(offer.transactionStatus == .DCC_REQUIRED && offer.dccCurrency?.code == "GBP", "\(offer)")
            let local = try value(
                await sdk.doMakeTransactionFinishDCC(transactionId: offer.transactionId, dccOfferAccepted: false), "decline the offer")
            // Declining keeps the offer in the detail; dccStatus says the sale was paid in złoty.
            #expect(local.transactionStatus == .CLEARED && local.dccStatus == .DECLINED, "\(local)")
            #expect(local.dccAmount == offer.dccAmount && local.dccCurrency?.code == "GBP" && local.transactionAmount == 4000, "\(local)")

            let (_, refund) = try await transaction(
                sdk.doRefund(currency: "PLN", requestedAmount: 5000, transactionId: saleA.transactionId, reference: nil), "partial refund")
            #expect(refund.transactionStatus == .CLEARED && refund.transactionAmount == 5000 && refund.cardType == "MASTERCARD", "\(refund)")
            let reversed = try value(await sdk.doReversal(transactionId: local.transactionId, isCancelledByUser: true), "reversal")
            #expect(reversed.transactionStatus == .USER_CANCELLED)
            #expect(requests.operations == [.payment, .payment, .refund])
            #expect(try value(await sdk.getTerminalInfo(), "terminal").currency.code == "PLN")
        }
    }

    @Test("session expiry: the host clock passes 600 s, the next call fails with session_expired and the notification is posted")
    func sessionExpiry() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let expired = NotificationCounter(TapOnMobile.SESSION_EXPIRED_NOTIFICATION, from: sdk)
            let other = makePhone(sandbox).sdk
            let elsewhere = NotificationCounter(TapOnMobile.SESSION_EXPIRED_NOTIFICATION, from: other)

            try await sandbox.backOffice("EU").advanceClock(seconds: 601)
            let error = try failure(await sdk.getTerminalInfo(), "terminal info after 601 s")
            #expect(error == .session(.sessionExpired) && error.code == "session_expired" && error.status == 401 && error.exitCode == 13, "\(error)")
            #expect(expired.count == 1)
            #expect(elsewhere.count == 0, "the notification names the device it concerns")
            #expect(await sdk.getSessionExpiration() == .failure(.session(.sessionError)), "the ended session is dropped")
            #expect(expired.count == 1)

            // Log in and prepare again: the reader re-aligns with the host clock, so the payload is fresh.
            _ = try value(await sdk.doLogin(pin: nil), "login again")
            #expect(await collect(sdk.doPayment(currency: "EUR", requestedAmount: 600, reference: nil)) == [.failure(.cardReaderSession(.notPrepared))])
            _ = try value(await sdk.prepareDeviceAndWait(), "prepare again")
            await sdk.reader.present(.tap(card("visa")))
            let (_, detail) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 600, reference: nil), "pay")
            #expect(detail.transactionStatus == .CLEARED, "\(detail)")
        }
    }

    @Test("certificate expiry: 91 days without login unregister the device; the notification is posted and the registration forgotten")
    func certificateExpiry() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "MBANK-T0101", in: sandbox, environment: .sandboxMBANK)
            let unregistered = NotificationCounter(TapOnMobile.CERTIFICATES_EXPIRED_UNREGISTERED_NOTIFICATION, from: sdk)
            let backOffice = sandbox.backOffice("MBANK")

            try await backOffice.advanceClock(seconds: 91 * 86_400)
            let error = try failure(await sdk.doLogin(pin: nil), "login after 91 days")
            #expect(error == .session(.certificatesExpired) && error.code == "certificates_expired", "\(error)")
            #expect(unregistered.count == 1)
            #expect(await sdk.getTerminalID() == .failure(.session(.terminalUnregistered)))
            #expect(try value(await sdk.isDeviceRegistered(), "isDeviceRegistered") == false)
            #expect((try await backOffice.terminal("MBANK-T0101"))["registered"] as? Bool == false)
            let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: phone.deviceFile)) as? [String: Any]
            #expect(saved?["registration"] == nil && saved?["installationId"] is String)

            // The device can register again.
            let challenge = try value(await sdk.beginRegistration(), "register again")
            let code = try await backOffice.confirm(challenge: challenge, terminal: "MBANK-T0101")
            _ = try value(await sdk.endRegistration(backofficeCode: code, pin: "1234"), "end again")
            #expect(try value(await sdk.isDeviceRegistered(), "registered again") == true)
        }
    }

    @Test("unregister: by the device (host frees the terminal, local state forgotten) and by the back office")
    func unregister() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "EU-T0202", in: sandbox, environment: .sandboxEU)
            let support = try value(await sdk.loadSupportNumber(), "support number")
            let backOffice = sandbox.backOffice("EU")

            _ = try value(await sdk.unregister(), "unregister")
            #expect((try await backOffice.terminal("EU-T0202"))["registered"] as? Bool == false)
            #expect(try value(await sdk.isDeviceRegistered(), "isDeviceRegistered") == false)
            #expect(await sdk.getTerminalID() == .failure(.session(.terminalUnregistered)))
            #expect(await sdk.doLogin(pin: nil) == .failure(.session(.terminalUnregistered)))
            #expect(await sdk.getTerminalInfo() == .failure(.session(.terminalUnregistered)))
            #expect(try value(await sdk.loadSupportNumber(), "support number after unregister") == support)

            // Registered again, then unregistered from the back office: the SDK finds out and forgets.
            try await registerAndPrepare(phone, on: "EU-T0202", in: sandbox, environment: .sandboxEU)
            try await backOffice.call("POST", "/backoffice/v1/terminals/EU-T0202/unregister")
            #expect(try value(await sdk.isDeviceRegistered(), "isDeviceRegistered after the back office") == false)
            #expect(await sdk.getTerminalID() == .failure(.session(.terminalUnregistered)))
            #expect(await sdk.unregister() == .failure(.session(.terminalUnregistered)))
        }
    }
}

/// The card requests a provider saw.
final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [SandboxConfiguration.CardRequest] = []
    func append(_ request: SandboxConfiguration.CardRequest) { lock.withLock { requests.append(request) } }
    var operations: [SandboxConfiguration.CardRequest.Operation] { lock.withLock { requests.map(\.operation) } }
}

enum WireTime {
    /// ISO 8601 with an offset, as the seed's history filters are written.
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        return formatter.string(from: date)
    }
}
