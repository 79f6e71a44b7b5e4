// Compiled into the SDK where Combine exists, and on Linux into TapOnMobileSandboxTests (through a
// symlink, with COMBINE_STAND_IN defined) against a stand-in of the few Combine types used here,
// so these publishers and the seed's examples over them are type-checked and run on every build.
#if (canImport(Combine) && !COMBINE_STAND_IN) || (COMBINE_STAND_IN && !canImport(Combine))
#if canImport(Combine)
import Combine
#endif
import Foundation
#if COMBINE_STAND_IN
import SandboxWire
import TapOnMobileSandbox
#endif
#if canImport(UIKit)
import UIKit
#endif

/// The seed's publisher signatures, over the async calls, so the seed's examples compile where
/// Combine exists. Each publisher starts its call when subscribed. Only the SDK's public API is
/// used here, so the same file compiles outside the SDK's module too (see above).
///
/// The async calls and these overload by `async`; `doPayment`, `doRefund`, `doCardReaderTest`,
/// `doQRPayment`, `doQRRefund`/`doQRefund`, `doBlikPayment`, `doBlikRefund`/`doBlikefund` and
/// `updateLanguage` overload by return type. Those stream (or `Result`) versions are
/// `@_disfavoredOverload`: where both exist, `let s = sdk.doRefund(…)` is the seed's publisher, as
/// in the seed's examples, and a use only the stream fits (`for await`, a typed `let`) takes the stream.
extension TapOnMobile {
    /// One async call as a publisher of its single result.
    private func publisher<T: Sendable>(
        _ call: @escaping @Sendable () async -> Result<T, TapOnMobileError>
    ) -> AnyPublisher<Result<T, TapOnMobileError>, Never> {
        Deferred {
            Future { promise in
                nonisolated(unsafe) let promise = promise
                Task { promise(.success(await call())) }
            }
        }.eraseToAnyPublisher()
    }

    /// An event stream as a publisher of its results (see ``EventPublisher``).
    private func publisher<T: Sendable>(
        _ stream: @escaping @Sendable () -> AsyncStream<Result<T, TapOnMobileError>>
    ) -> AnyPublisher<Result<T, TapOnMobileError>, Never> {
        EventPublisher(stream: stream).eraseToAnyPublisher()
    }

    /// Publishes an event stream: the stream starts at the subscriber's first demand, its events
    /// wait for demand (none is dropped), the end follows the last event, and a cancel ends the
    /// stream (which closes the card screen). A subject would drop the events sent before the first
    /// demand had reached it, or while a subscriber asks for fewer than come.
    private struct EventPublisher<T: Sendable>: Publisher {
        typealias Output = Result<T, TapOnMobileError>
        typealias Failure = Never
        let stream: @Sendable () -> AsyncStream<Output>

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            subscriber.receive(subscription: EventSubscription(subscriber, stream: stream))
        }
    }

    /// One subscriber's events, delivered one at a time within its demand.
    private final class EventSubscription<S: Subscriber, T: Sendable>: Subscription, @unchecked Sendable
    where S.Input == Result<T, TapOnMobileError>, S.Failure == Never {
        private let lock = NSLock()
        // Under `lock`:
        private var subscriber: S?
        private var stream: (@Sendable () -> AsyncStream<S.Input>)?
        private var task: Task<Void, Never>?
        private var demand = Subscribers.Demand.none
        private var pending: [S.Input] = []
        private var ended = false
        private var delivering = false

        init(_ subscriber: S, stream: @escaping @Sendable () -> AsyncStream<S.Input>) {
            self.subscriber = subscriber
            self.stream = stream
        }

        func request(_ more: Subscribers.Demand) {
            lock.lock()
            demand += more
            if let stream, demand > 0 {
                self.stream = nil
                task = Task { [self] in
                    for await event in stream() { arrived(event) }
                    finished()
                }
            }
            lock.unlock()
            deliver()
        }

        func cancel() {
            lock.lock()
            subscriber = nil
            stream = nil
            pending = []
            let task = self.task
            lock.unlock()
            task?.cancel()
        }

        private func arrived(_ event: S.Input) {
            lock.withLock { if subscriber != nil { pending.append(event) } }
            deliver()
        }

        private func finished() {
            lock.withLock { ended = true }
            deliver()
        }

        /// Hands over what the demand allows, then the end once nothing is left; one thread at a time.
        private func deliver() {
            lock.lock()
            guard !delivering else { return lock.unlock() }
            delivering = true
            while let subscriber {
                if demand > 0, !pending.isEmpty {
                    let event = pending.removeFirst()
                    demand -= 1
                    lock.unlock()
                    let more = subscriber.receive(event)
                    lock.lock()
                    demand += more
                } else if ended, pending.isEmpty {
                    self.subscriber = nil
                    lock.unlock()
                    subscriber.receive(completion: .finished)
                    lock.lock()
                } else {
                    break
                }
            }
            delivering = false
            lock.unlock()
        }
    }

    public func initialization(environment: Environments, appVersion: String? = nil, language: TapOnMobileLanguage? = nil)
        -> AnyPublisher<Result<Success, TapOnMobileError>, Never>
    { publisher { await self.initialization(environment: environment, appVersion: appVersion, language: language) } }

    public func updateLanguage(language: TapOnMobileLanguage) -> AnyPublisher<Result<Success, TapOnMobileError>, Never> {
        Just(updateLanguage(language: language) as Result<Success, TapOnMobileError>).eraseToAnyPublisher()
    }

    public func getSDKVersion() -> AnyPublisher<Result<String, TapOnMobileError>, Never> { publisher { await self.getSDKVersion() } }

    public func verifyRegistrationToken(registrationToken: String) -> AnyPublisher<Result<Bool, TapOnMobileError>, Never> {
        publisher { await self.verifyRegistrationToken(registrationToken: registrationToken) }
    }

    public func beginTokenRegistration(registrationToken: String) -> AnyPublisher<Result<Success, TapOnMobileError>, Never> {
        publisher { await self.beginTokenRegistration(registrationToken: registrationToken) }
    }

    public func endTokenRegistration(registrationToken: String, pin: String?) -> AnyPublisher<Result<Success, TapOnMobileError>, Never> {
        publisher { await self.endTokenRegistration(registrationToken: registrationToken, pin: pin) }
    }

    public func beginRegistration() -> AnyPublisher<Result<String, TapOnMobileError>, Never> {
        publisher { await self.beginRegistration() }
    }

    public func verifyChallengeCode(challengeCode: String) -> AnyPublisher<Result<Bool, TapOnMobileError>, Never> {
        publisher { await self.verifyChallengeCode(challengeCode: challengeCode) }
    }

    public func endRegistration(backofficeCode: String, pin: String?) -> AnyPublisher<Result<Success, TapOnMobileError>, Never> {
        publisher { await self.endRegistration(backofficeCode: backofficeCode, pin: pin) }
    }

    public func doLogin(pin: String?) -> AnyPublisher<Result<Success, TapOnMobileError>, Never> { publisher { await self.doLogin(pin: pin) } }
    public func doLogout() -> AnyPublisher<Result<Success, TapOnMobileError>, Never> { publisher { await self.doLogout() } }

    public func doPayment(
        currency: String, requestedAmount: Int, reference: String?, tipAmount: Int? = nil, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true, checkoutId: String? = nil
    ) -> AnyPublisher<Result<TransactionProcessEvent, TapOnMobileError>, Never> {
        publisher {
            self.doPayment(
                currency: currency, requestedAmount: requestedAmount, reference: reference, tipAmount: tipAmount, container: container,
                paymentSolutionReceiptHandling: paymentSolutionReceiptHandling, checkoutId: checkoutId
            ) as AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>
        }
    }

    public func doRefund(
        currency: String, requestedAmount: Int, transactionId: String, reference: String?, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true, checkoutId: String? = nil
    ) -> AnyPublisher<Result<TransactionProcessEvent, TapOnMobileError>, Never> {
        publisher {
            self.doRefund(
                currency: currency, requestedAmount: requestedAmount, transactionId: transactionId, reference: reference,
                container: container, paymentSolutionReceiptHandling: paymentSolutionReceiptHandling, checkoutId: checkoutId
            ) as AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>
        }
    }

    public func doQRPayment(
        requestedAmount: Int, tipAmount: Int?, reference: String?, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true
    ) -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never> {
        publisher {
            self.doQRPayment(
                requestedAmount: requestedAmount, tipAmount: tipAmount, reference: reference, container: container,
                paymentSolutionReceiptHandling: paymentSolutionReceiptHandling
            ) as AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>
        }
    }

    public func cancelQRPayment(transactionId: String, reason: String = "") -> AnyPublisher<Result<APMTransaction, TapOnMobileError>, Never> {
        publisher { await self.cancelQRPayment(transactionId: transactionId, reason: reason) }
    }

    public func doQRRefund(refundedTransactionId: String, refundAmount: Int, reference: String?)
        -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never>
    {
        publisher {
            self.doQRRefund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference)
                as AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>
        }
    }

    /// ``doQRRefund(refundedTransactionId:refundAmount:reference:)`` as the seed's declaration spells it.
    public func doQRefund(refundedTransactionId: String, refundAmount: Int, reference: String?)
        -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never>
    {
        publisher {
            self.doQRRefund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference)
                as AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>
        }
    }

    public func doBlikPayment(
        requestedAmount: Int, tipAmount: Int?, reference: String?, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true, payCode: String? = nil, verificationCode: String? = nil
    ) -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never> {
        publisher {
            self.doBlikPayment(
                requestedAmount: requestedAmount, tipAmount: tipAmount, reference: reference, container: container,
                paymentSolutionReceiptHandling: paymentSolutionReceiptHandling, payCode: payCode, verificationCode: verificationCode
            ) as AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>
        }
    }

    public func doBlikRefund(refundedTransactionId: String, refundAmount: Int, reference: String?)
        -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never>
    {
        publisher {
            self.doBlikRefund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference)
                as AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>
        }
    }

    /// ``doBlikRefund(refundedTransactionId:refundAmount:reference:)`` as the seed's declaration spells it.
    @available(*, deprecated, renamed: "doBlikRefund(refundedTransactionId:refundAmount:reference:)")
    public func doBlikefund(refundedTransactionId: String, refundAmount: Int, reference: String?)
        -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never>
    {
        publisher {
            self.doBlikRefund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference)
                as AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>
        }
    }

    public func doReversal(transactionId: String, isCancelledByUser: Bool = false) -> AnyPublisher<Result<Success, TapOnMobileError>, Never> {
        publisher { await self.doReversal(transactionId: transactionId, isCancelledByUser: isCancelledByUser) }
    }

    public func doMakeTransactionFinishDCC(transactionId: String?, dccOfferAccepted: Bool)
        -> AnyPublisher<Result<TransactionDetail, TapOnMobileError>, Never>
    { publisher { await self.doMakeTransactionFinishDCC(transactionId: transactionId, dccOfferAccepted: dccOfferAccepted) } }

    public func getLastTransaction() -> AnyPublisher<Result<TransactionDetail, TapOnMobileError>, Never> {
        publisher { await self.getLastTransaction() }
    }

    public func getInfoInit() -> AnyPublisher<Result<InfoInit, TapOnMobileError>, Never> { publisher { await self.getInfoInit() } }

    public func fetchTransactionsHistory(
        page: Int, itemsPerPage: Int, dateFrom: String, dateTo: String, filterStatus: [String], filterType: [String],
        filterPaymentMethod: [String] = [PaymentMethod.CARD.rawValue, PaymentMethod.QRCODE.rawValue, PaymentMethod.BLIK.rawValue]
    ) -> AnyPublisher<Result<TransactionsHistoryPage, TapOnMobileError>, Never> {
        publisher {
            await self.fetchTransactionsHistory(
                page: page, itemsPerPage: itemsPerPage, dateFrom: dateFrom, dateTo: dateTo, filterStatus: filterStatus,
                filterType: filterType, filterPaymentMethod: filterPaymentMethod)
        }
    }

    public func fetchTransactionDetails(transactionId: String? = nil, reference: String? = nil, terminalId: String? = nil)
        -> AnyPublisher<Result<TransactionDetail, TapOnMobileError>, Never>
    { publisher { await self.fetchTransactionDetails(transactionId: transactionId, reference: reference, terminalId: terminalId) } }

    /// ``fetchTransactionDetails(transactionId:reference:terminalId:)`` as the seed's examples spell it.
    public func fetchTransactionsDetails(transactionId: String? = nil, reference: String? = nil, terminalId: String? = nil)
        -> AnyPublisher<Result<TransactionDetail, TapOnMobileError>, Never>
    { publisher { await self.fetchTransactionDetails(transactionId: transactionId, reference: reference, terminalId: terminalId) } }

    public func fetchTransactionsCount(
        page: Int, itemsPerPage: Int, dateFrom: String, dateTo: String, filterStatus: [String], filterType: [String],
        filterPaymentMethod: [String] = [PaymentMethod.CARD.rawValue, PaymentMethod.QRCODE.rawValue]
    ) -> AnyPublisher<Result<TransactionsCount, TapOnMobileError>, Never> {
        publisher {
            await self.fetchTransactionsCount(
                page: page, itemsPerPage: itemsPerPage, dateFrom: dateFrom, dateTo: dateTo, filterStatus: filterStatus,
                filterType: filterType, filterPaymentMethod: filterPaymentMethod)
        }
    }

    public func getTransactionsStatistics(fromDate: Date, toDate: Date, statisticsType: TransactionsStatisticsType)
        -> AnyPublisher<Result<[TransactionsStatistics], TapOnMobileError>, Never>
    { publisher { await self.getTransactionsStatistics(fromDate: fromDate, toDate: toDate, statisticsType: statisticsType) } }

    public func getTerminalInfo() -> AnyPublisher<Result<TerminalInfo, TapOnMobileError>, Never> { publisher { await self.getTerminalInfo() } }

    public func doCardReaderTest(currency: String) -> AnyPublisher<Result<CardReaderTestProcessEvent, TapOnMobileError>, Never> {
        publisher { self.doCardReaderTest(currency: currency) as AsyncStream<Result<CardReaderTestProcessEvent, TapOnMobileError>> }
    }

    public func unregister() -> AnyPublisher<Result<Success, TapOnMobileError>, Never> { publisher { await self.unregister() } }

    public func validateTransaction(transactionServiceType: TransactionServiceType, requestedAmount: Int?, validate: String?)
        -> AnyPublisher<Result<Success, TapOnMobileError>, Never>
    {
        publisher {
            await self.validateTransaction(
                transactionServiceType: transactionServiceType, requestedAmount: requestedAmount, validate: validate)
        }
    }

    public func getDigitalReceipt(from transactionId: String, receiptType: ReceiptType, email: String?)
        -> AnyPublisher<Result<ReceiptConfirmation, TapOnMobileError>, Never>
    { publisher { await self.getDigitalReceipt(from: transactionId, receiptType: receiptType, email: email) } }

    /// ``getDigitalReceipt(from:receiptType:email:)`` as the seed's usage block spells it.
    public func getDigitalReceipt(transactionId: String, receiptType: ReceiptType, email: String?)
        -> AnyPublisher<Result<ReceiptConfirmation, TapOnMobileError>, Never>
    { publisher { await self.getDigitalReceipt(from: transactionId, receiptType: receiptType, email: email) } }

    public func updateSecretCode(oldSecretCode: String, newSecretCode: String) -> AnyPublisher<Result<Success, TapOnMobileError>, Never> {
        publisher { await self.updateSecretCode(oldSecretCode: oldSecretCode, newSecretCode: newSecretCode) }
    }

    public func relinkAccount() -> AnyPublisher<Result<Success, TapOnMobileError>, Never> { publisher { await self.relinkAccount() } }
    public func loadSupportNumber() -> AnyPublisher<Result<String, TapOnMobileError>, Never> { publisher { await self.loadSupportNumber() } }
    public func requestLocation() -> AnyPublisher<Result<Success, TapOnMobileError>, Never> { publisher { await self.requestLocation() } }
    public func isDeviceRegistered() -> AnyPublisher<Result<Bool, TapOnMobileError>, Never> { publisher { await self.isDeviceRegistered() } }
    public func getTerminalID() -> AnyPublisher<Result<String, TapOnMobileError>, Never> { publisher { await self.getTerminalID() } }
    public func getSessionExpiration() -> AnyPublisher<Result<Double, TapOnMobileError>, Never> {
        publisher { await self.getSessionExpiration() }
    }
}
#endif
