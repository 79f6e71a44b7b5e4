#if canImport(Combine)
import Combine
import Foundation

/// The seed's publisher signatures, over the async calls, so the seed's examples compile where
/// Combine exists. Each publisher starts its call when subscribed.
///
/// The async calls and these overload by `async`; `doPayment`, `doRefund`, `doCardReaderTest` and
/// `updateLanguage` overload by return type, so the use decides (`.receive(on:)` picks the
/// publisher, `for await` the stream).
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

    /// An event stream as a publisher of its results; the stream starts at the subscriber's
    /// first demand, so no event is sent before anyone can receive it.
    private func publisher<T: Sendable>(
        _ stream: @escaping @Sendable () -> AsyncStream<Result<T, TapOnMobileError>>
    ) -> AnyPublisher<Result<T, TapOnMobileError>, Never> {
        Deferred {
            let subject = PassthroughSubject<Result<T, TapOnMobileError>, Never>()
            nonisolated(unsafe) let sink = subject
            let task = Locked<Task<Void, Never>?>(nil)
            return subject.handleEvents(
                receiveCancel: { task.withLock { $0?.cancel() } },
                receiveRequest: { _ in
                    task.withLock { running in
                        guard running == nil else { return }
                        running = Task {
                            for await result in stream() { sink.send(result) }
                            sink.send(completion: .finished)
                        }
                    }
                })
        }.eraseToAnyPublisher()
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
        currency: String, requestedAmount: Int, reference: String?, tipAmount: Int? = nil, checkoutId: String? = nil
    ) -> AnyPublisher<Result<TransactionProcessEvent, TapOnMobileError>, Never> {
        publisher {
            self.doPayment(currency: currency, requestedAmount: requestedAmount, reference: reference, tipAmount: tipAmount,
                           checkoutId: checkoutId) as AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>
        }
    }

    public func doRefund(
        currency: String, requestedAmount: Int, transactionId: String, reference: String?, checkoutId: String? = nil
    ) -> AnyPublisher<Result<TransactionProcessEvent, TapOnMobileError>, Never> {
        publisher {
            self.doRefund(currency: currency, requestedAmount: requestedAmount, transactionId: transactionId, reference: reference,
                          checkoutId: checkoutId) as AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>
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
