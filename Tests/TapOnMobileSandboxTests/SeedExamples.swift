#if canImport(Combine)
import Combine
#endif
import Foundation
import TapOnMobileSandbox  // the seed: import TapOnMobileSDK

// The seed's own examples (000_799f2f94223252ff.txt), copied as they are: only the import differs,
// and where the seed's text cannot compile anywhere the fix is named beside it. Each example is a
// method of `SeedExamples`, whose properties are the ones the examples use (a view model's, in the
// seed's sample app); `print` is the recording one of PrintedLines.swift. SeedExampleTests runs
// them against a live sandbox; on Linux the publishers come from the Combine stand-in.

/// Seed code block 28/29's listener (seed lines 693–713).
class ExampleClass: PrepareDeviceListener {

    init() {
        TapOnMobile.shared.addPrepareDeviceListener(self)
        TapOnMobile.shared.prepareDevice()
    }

    public func onPercentageUpdated(percentage: Int) {
        print("Prepare device progress: \(percentage)%")
    }

    public func onError(error: TapOnMobileError) {
        TapOnMobile.shared.removePrepareDeviceListener(self)
        print("Prepare device failure: \(error)")
    }

    public func onCompleted() {
        TapOnMobile.shared.removePrepareDeviceListener(self)
        print("Prepare device completed.")
    }
}

/// What the seed's examples read and write on `self`.
@MainActor
final class SeedExamples {
    struct Transactions {
        var history: [TransactionHistoryItem] = []
    }

    var disposables = Set<AnyCancellable>()
    var registerCode = ""
    var inputCode = ""
    var pin: String? = nil
    var currency = "EUR"
    var amount = "1250"
    var tipAmount = ""
    var reference: String? = nil
    /// Code block 45's cancel reason.
    var reason = ""
    /// Code block 52's BLIK code and its verification code.
    var payCode: String? = nil
    var verificationCode: String? = nil
    var checkoutId: String? = nil
    var transactionId = ""
    var sdkFeedback: [String] = []
    var transactions = Transactions()
    var transactionDetail: TransactionDetail?
    var currentPage = 1
    var itemsPerPage = 20
    var lastPageReached = false
    var dateFrom = ""
    var dateTo = ""
    var selectedStatusFilters: [String] = []
    var dccOptionSelected = false
    var transactionServiceType = TransactionServiceType.payment
    var requestedAmount: Int? = 1250
    var oldSecretCode = ""
    var newSecretCode = ""
    /// What the sample app's `getRootViewController()` answers: the view controller on screen.
    var rootViewController: UIViewController? = nil

    func getRootViewController() -> UIViewController? { rootViewController }

    /// Seed code block 14 (seed lines 457–468).
    func example14_beginRegistration() {
        TapOnMobile.shared.beginRegistration()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let challenge):
                    self.registerCode = challenge
                    print("Begin device registration: Success. Complete the steps to finish device registration.")
                case .failure(let error):
                    print("Begin device registration: Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 17 (seed lines 502–512).
    func example17_endRegistration() {
        TapOnMobile.shared.endRegistration(backofficeCode: inputCode, pin: pin)
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success:
                    print("Finishing device registration: Success.")
                case .failure(let error):
                    print("Finishing device registration: Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 20 (seed lines 547–557).
    func example20_verifyChallengeCode() {
        TapOnMobile.shared.verifyChallengeCode(challengeCode: inputCode)
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let isCodeValid):
                    print("Finishing code verification: \(isCodeValid).")
                case .failure(let error):
                    print("Finishing code verification: Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 23 (seed lines 597–607).
    func example23_doLogin() {
        TapOnMobile.shared.doLogin(pin: self.pin)
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let success):
                    print("Success login: \(success)")
                case .failure(let error):
                    print("Error login: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 26 (seed lines 631–641). The seed writes `.tapOnMobile.shared`, which no Swift
    /// compiles; fixed to `TapOnMobile.shared`.
    func example26_doLogout() {
        TapOnMobile.shared.doLogout()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let success):
                    print("Success logout: \(success)")
                case .failure(let error):
                    print("Error logout: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 32 (seed lines 922–946).
    func example32_doPayment() {
        TapOnMobile.shared.doPayment(
            currency: currency,
            requestedAmount: Int(amount) ?? 0,
            reference: reference,
            tipAmount: Int(tipAmount),
            container: getRootViewController(),
            checkoutId: checkoutId
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let paymentProcessEvent):
                switch paymentProcessEvent {
                case .completed(let transactionDetail):
                    self?.transactionId = transactionDetail.transactionId
                    self?.sdkFeedback.append("")
                    self?.sdkFeedback.append(" - Finish: Success. Payment transaction id: \(transactionDetail.transactionId)")
                default:
                    self?.sdkFeedback.append(" - update: \(paymentProcessEvent)")
                }
            case .failure(let error):
                self?.sdkFeedback.append(" Payment: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 35 (seed lines 998–1022).
    func example35_doRefund() {
        TapOnMobile.shared.doRefund(
            currency: currency,
            requestedAmount: Int(amount) ?? 0,
            transactionId: transactionId,
            reference: reference,
            container: getRootViewController(),
            checkoutId: checkoutId
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let paymentProcessEvent):
                switch paymentProcessEvent {
                case .completed(let transactionDetail):
                    self?.transactionId = transactionDetail.transactionId
                    self?.sdkFeedback.append("")
                    self?.sdkFeedback.append(" - Finish: Success. Refund transaction id: \(transactionDetail.transactionId)")
                default:
                    self?.sdkFeedback.append(" - update: \(paymentProcessEvent)")
                }
            case .failure(let error):
                self?.sdkFeedback.append(" Payment: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 38 (seed lines 1069–1082).
    func example38_doReversal() {
        TapOnMobile.shared.doReversal(
            transactionId: transactionId
        )
        .receive(on: DispatchQueue.main)
        .sink { result in
            switch result {
            case .success(let transactionStatus):
                // transactionStatus reflects .CANCELLED
                print("Success reversal: \(transactionStatus)")
            case .failure(let error):
                print("Error reversal: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 58 (seed lines 1453–1465). Kept as written: the seed does not store this
    /// cancellable, so (in Combine as here) the subscription ends at once and nothing is printed.
    func example58_doMakeTransactionFinishDCC() {
        TapOnMobile.shared.doMakeTransactionFinishDCC(
            transactionId: transactionId,
            dccOfferAccepted: dccOptionSelected
        )
        .receive(on: DispatchQueue.main)
        .sink { result in
            switch result {
            case .success(let success):
                print("Success - DCC TransactionFinished from \(success)")
            case .failure(let error):
                print("Error during transaction validation: \(error)")
            }
        }
    }

    /// Seed code block 61 (seed lines 1498–1508). The seed page prints this example twice, glued together; one copy.
    func example61_getLastTransaction() {
        TapOnMobile.shared.getLastTransaction()
            .receive(on: DispatchQueue.main)
            .sink { [weak self] result in
                switch result {
                case .success(let lastTransaction):
                    print("Success get last transaction: \(lastTransaction)")
                case .failure(let error):
                    print("Error get last transaction: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 64 (seed lines 1563–1576).
    func example64_getInfoInit() {
        TapOnMobile.shared.getInfoInit()
            .receive(on: DispatchQueue.main)
            .sink { [weak self] result in
                switch result {
                case .success(let infoInit):
                    print("Success get info init: \(infoInit)")
                    if infoInit.isAutoLoginEnabled {
                        print("Auto login is enabled")
                    }
                case .failure(let error):
                    print("Error get info init: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 67 (seed lines 1650–1668).
    func example67_fetchTransactionsHistory() {
        TapOnMobile.shared.fetchTransactionsHistory(
            page: currentPage,
            itemsPerPage: itemsPerPage,
            dateFrom: dateFrom,
            dateTo: dateTo,
            filterStatus: selectedStatusFilters, // ["TransactionStatus.AUTHORIZED.rawValue", "TransactionStatus.DECLINED.rawValue", ...]
            filterType: [TransactionType.AUTH.rawValue, TransactionType.REFUND.rawValue],
            filterPaymentMethod: [PaymentMethod.CARD.rawValue, PaymentMethod.QRCODE.rawValue]
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let transactionsResponse):
                self?.transactions.history.append(contentsOf: transactionsResponse)
            case .failure(let error):
                print("Transaction History: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 70 (seed lines 1710–1722). The seed labels this one "Usage", but it is a whole example.
    func example70_fetchTransactionsDetailsUsage() {
        TapOnMobile.shared.fetchTransactionsDetails(
            transactionId: "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let transactionDetail):
                self?.transactionDetail = transactionDetail
            case .failure(let error):
                print("Transaction Detail Error: \(error.errorDescription)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 71 (seed lines 1732–1746).
    func example71_fetchTransactionsDetails() {
        TapOnMobile.shared.fetchTransactionsDetails(
            transactionId: transactionId,
            reference: nil,
            terminalId: nil
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let transactionsResponse):
                self?.transactionDetail = transactionsResponse
            case .failure(let error):
                print("Transaction Detail: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 74 (seed lines 1807–1827).
    func example74_fetchTransactionsCount() {
        TapOnMobile.shared.fetchTransactionsCount(
            page: currentPage,
            itemsPerPage: itemsPerPage,
            dateFrom: dateFrom,
            dateTo: dateTo,
            filterStatus: selectedStatusFilters, // ["TransactionStatus.AUTHORIZED.rawValue", "TransactionStatus.DECLINED.rawValue", ...]
            filterType: [TransactionType.AUTH.rawValue, TransactionType.REFUND.rawValue],
            filterPaymentMethod: [PaymentMethod.CARD.rawValue, PaymentMethod.QRCODE.rawValue]
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let transactionsCount):
                if transactionsCount.count < self?.itemsPerPage ?? 0 {
                    self?.lastPageReached = true
                }
            case .failure(let error):
                print("Transaction Count: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 78 (seed lines 1901–1915). `fromDate` and `toDate` are the caller's values:
    /// the closure names them without `self`, which only compiles for locals or parameters.
    func example78_getTransactionsStatistics(fromDate: Date, toDate: Date) {
        TapOnMobile.shared.getTransactionsStatistics(
            fromDate: fromDate,
            toDate: toDate,
            statisticsType: .daily
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let statistics):
                self?.sdkFeedback.append("Success - Statistics from \(fromDate.toFormattedString()) to \(toDate.toFormattedString()): \(statistics)")
            case .failure(let error):
                self?.sdkFeedback.append("Error during transaction validation: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 81 (seed lines 2013–2023).
    func example81_getTerminalInfo() {
        TapOnMobile.shared.getTerminalInfo()
            .receive(on: DispatchQueue.main)
            .sink { [weak self] result in
                switch result {
                case .success(let terminalInfo):
                    self?.sdkFeedback.append("Terminal Information: \(terminalInfo)")
                case .failure(let error):
                    self?.sdkFeedback.append("Error retrieving terminal information: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 85 (seed lines 2072–2087).
    func example85_doCardReaderTest() {
        TapOnMobile.shared.doCardReaderTest(currency: currency)
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let cardTestProcessEvent):
                    switch cardTestProcessEvent {
                    case .completed(let isCardReadOK):
                        print("Card Test result: \(isCardReadOK)")
                    default:
                        print("update: \(cardTestProcessEvent)")
                    }
                case .failure(let error):
                    print("Error testing card: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 88 (seed lines 2114–2124).
    func example88_unregister() {
        TapOnMobile.shared.unregister()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success:
                    print("Success unregistering the device.")
                case .failure(let error):
                    print("Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 91 (seed lines 2173–2187). The seed passes the service type as
    /// `requestedAmount:` and labels the reference `reference:` where its signature says `validate:`;
    /// neither compiles against the seed's own signature, so both are fixed.
    func example91_validateTransaction() {
        TapOnMobile.shared.validateTransaction(
            transactionServiceType: transactionServiceType,
            requestedAmount: requestedAmount,
            validate: reference
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success:
                self?.sdkFeedback.append("Success - Transaction request is valid")
            case .failure(let error):
                self?.sdkFeedback.append("Error during transaction validation: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 94 (seed lines 2235–2249).
    func example94_getDigitalReceipt() {
        TapOnMobile.shared.getDigitalReceipt(
            from: transactionId,
            receiptType: .email,
            email: "<myemail@email.com>"
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success(let receiptConfirmation):
                self?.sdkFeedback.append("Success - Receipt Confirmation Status: \(receiptConfirmation)")
            case .failure(let error):
                self?.sdkFeedback.append("Error during transaction validation: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 97 (seed lines 2285–2298).
    func example97_updateSecretCode() {
        TapOnMobile.shared.updateSecretCode(
            oldSecretCode: oldSecretCode,
            newSecretCode: newSecretCode
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            switch result {
            case .success:
                print("Success - Updated secret code")
            case .failure(let error):
                print("Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 100 (seed lines 2327–2336). Kept as written: the seed does not store this
    /// cancellable, so (in Combine as here) the subscription ends at once and nothing is printed.
    func example100_relinkAccount() {
        TapOnMobile.shared.relinkAccount()
            .receive(on: DispatchQueue.main)
            .sink { [weak self] result in
                switch result {
                case .success:
                    print("Apple account relinked successfully")
                case .failure(let error):
                    print("Error relinking Apple account: \(error)")
                }
            }
    }

    /// Seed code block 103 (seed lines 2371–2381).
    func example103_loadSupportNumber() {
        TapOnMobile.shared.loadSupportNumber()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let supportNumber):
                    print("Success - \(supportNumber)")
                case .failure(let error):
                    print("Error during load support number: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 107 (seed lines 2429–2439). The seed labels this one "Usage", but it is a whole example.
    func example107_requestLocation() {
        TapOnMobile.shared.requestLocation()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success:
                    print("request location - Success")
                case .failure(let error):
                    print("Request location - Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 110 (seed lines 2468–2482).
    func example110_isDeviceRegistered() {
        TapOnMobile.shared.isDeviceRegistered()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let deviceAlreadyRegistered):
                    if deviceAlreadyRegistered {
                        print("Device already registered")
                    } else {
                        print("Device is not registered.")
                    }
                case .failure(let error):
                    print("Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 113 (seed lines 2506–2516).
    func example113_getSDKVersion() {
        TapOnMobile.shared.getSDKVersion()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let sdkVersion):
                    print("SDK Version: \(sdkVersion)")
                case .failure(let error):
                    print("Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 116 (seed lines 2540–2550).
    func example116_getTerminalID() {
        TapOnMobile.shared.getTerminalID()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let terminalId):
                    print("Terminal id: \(terminalId)")
                case .failure(let error):
                    print("Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 119 (seed lines 2581–2597).
    func example119_getSessionExpiration() {
        TapOnMobile.shared.getSessionExpiration()
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let sessionExpiration):
                    print("SessionExpiration: \(sessionExpiration)")

                    if Date().timeIntervalSince1970 > sessionExpiration {
                        print("Session has expired")
                    } else {
                        print("Current session is still available")
                    }
                case .failure(let error):
                    print("Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 127 (seed lines 2707–2717).
    func example127_updateLanguage() {
        TapOnMobile.shared.updateLanguage(language: .english)
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success:
                    print("Language updated successfully")
                case .failure(let error):
                    print("Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 40 (seed lines 1109–1115), "Usage": the placeholders (`/* amount here as Int */` …)
    /// are filled with the properties code block 42 uses; nothing else differs.
    func example40_doQRPaymentUsage() -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never> {
        TapOnMobile.shared.doQRPayment(
            requestedAmount: Int(amount) ?? 0,
            tipAmount: Int(tipAmount),
            reference: reference,
            container: getRootViewController(),
            paymentSolutionReceiptHandling: true
        )
    }

    /// Seed code block 42 (seed lines 1136–1160).
    func example42_doQRPayment() {
        TapOnMobile.shared.doQRPayment(
            requestedAmount: Int(amount) ?? 0,
            tipAmount: Int(tipAmount),
            reference: reference,
            container: getRootViewController()
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            guard let self = self else { return }

            switch result {
            case .success(let QRpaymentProcessEvent):
                switch QRpaymentProcessEvent {
                case .completed(let apmTransaction):
                    self.transactionId = apmTransaction.transactionId
                    self.sdkFeedback.append("")
                    self.sdkFeedback.append(" - Finish: Success. Payment transaction id: \(apmTransaction.transactionId)")
                @unknown default:
                    self.sdkFeedback.append(" - update: \(QRpaymentProcessEvent)")
                }
            case .failure(let error):
                self.sdkFeedback.append(" Payment: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 44 (seed lines 1183–1186), "Usage": the placeholders filled as in code block 45.
    func example44_cancelQRPaymentUsage() -> AnyPublisher<Result<APMTransaction, TapOnMobileError>, Never> {
        TapOnMobile.shared.cancelQRPayment(
            transactionId: transactionId,
            reason: ""
        )
    }

    /// Seed code block 45 (seed lines 1196–1207).
    func example45_cancelQRPayment() {
        TapOnMobile.shared.cancelQRPayment(transactionId: transactionId, reason: reason)
            .receive(on: DispatchQueue.main)
            .sink { result in
                switch result {
                case .success(let apmTransaction):
                    self.transactionId = apmTransaction.transactionId
                    self.sdkFeedback.append(" - Finish: Success. Cancelled payment transaction id: \(apmTransaction.transactionId)")
                case .failure(let error):
                    self.sdkFeedback.append("Payment: Error: \(error)")
                }
            }
            .store(in: &disposables)
    }

    /// Seed code block 47 (seed lines 1230–1234), "Usage", under the declaration's spelling `doQRefund`:
    /// the placeholders filled as in code block 48.
    func example47_doQRefundUsage() -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never> {
        TapOnMobile.shared.doQRefund(
            refundedTransactionId: transactionId,
            refundAmount: Int(amount) ?? 0,
            reference: reference
        )
    }

    /// Seed code block 48 (seed lines 1244–1266), under the example's spelling `doQRRefund`.
    func example48_doQRRefund() {
        TapOnMobile.shared.doQRRefund(
            refundedTransactionId: transactionId,
            refundAmount: Int(amount) ?? 0,
            reference: reference
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            guard let self = self else { return }

            switch result {
            case .success(let QRpaymentProcessEvent):
                switch QRpaymentProcessEvent {
                case .completed(let transaction):
                    self.sdkFeedback.append(" - Finish: Success. Refunded transaction id: \(transaction.transactionId)")
                    transactionId = transaction.transactionId
                default:
                    break
                }
            case .failure(let error):
                self.sdkFeedback.append("QR Refund: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }
}

extension SeedExamples {
    /// Seed code block 50 (seed lines 1297–1305), "Usage": the placeholders filled with the
    /// properties code block 52 uses.
    func example50_doBlikPaymentUsage() -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never> {
        TapOnMobile.shared.doBlikPayment(
            requestedAmount: Int(amount) ?? 0,
            tipAmount: Int(tipAmount),
            reference: reference,
            container: getRootViewController(),
            paymentSolutionReceiptHandling: true,
            payCode: payCode,
            verificationCode: verificationCode
        )
    }

    /// Seed code block 51 (seed lines 1317–1322): the event enum the BLIK calls report, matched
    /// case by case as the seed declares it.
    func example51_APMTransactionProcessEvent(_ event: APMTransactionProcessEvent) -> String {
        switch event {
        case .displayBrands: "displayBrands"
        case .displayQR: "displayQR"
        case .processing: "processing"
        case .completed: "completed"
        }
    }

    /// Seed code block 52 (seed lines 1327–1354).
    func example52_doBlikPayment() {
        TapOnMobile.shared.doBlikPayment(
            requestedAmount: Int(amount) ?? 0,
            tipAmount: Int(tipAmount),
            reference: reference,
            container: getRootViewController(),
            payCode: payCode,
            verificationCode: verificationCode
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            guard let self = self else { return }

            switch result {
            case .success(let QRpaymentProcessEvent):
                switch QRpaymentProcessEvent {
                case .processing:
                    self.sdkFeedback.append(" - Processing: Success. Processing Payment transaction id: \(self.transactionId)")
                case .completed(let transaction):
                    self.sdkFeedback.append(" - Finish: Success. Payment transaction id: \(transaction.transactionId)")
                    self.transactionId = transaction.transactionId
                default:
                    break
                }
            case .failure(let error):
                self.sdkFeedback.append(" BLIK Payment: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }

    /// Seed code block 53 (seed lines 1364–1370), the declaration's spelling `doBlikefund`, called
    /// with the placeholders of code block 54 filled as in code block 55.
    @available(*, deprecated)
    func example53_doBlikefund() -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never> {
        TapOnMobile.shared.doBlikefund(
            refundedTransactionId: transactionId,
            refundAmount: Int(amount) ?? 0,
            reference: reference
        )
    }

    /// Seed code block 54 (seed lines 1379–1383), "Usage": the placeholders filled as in code block 55.
    func example54_doBlikRefundUsage() -> AnyPublisher<Result<APMTransactionProcessEvent, TapOnMobileError>, Never> {
        TapOnMobile.shared.doBlikRefund(
            refundedTransactionId: transactionId,
            refundAmount: Int(amount) ?? 0,
            reference: reference
        )
    }

    /// Seed code block 55 (seed lines 1393–1415).
    func example55_doBlikRefund() {
        TapOnMobile.shared.doBlikRefund(
            refundedTransactionId: transactionId,
            refundAmount: Int(amount) ?? 0,
            reference: reference
        )
        .receive(on: DispatchQueue.main)
        .sink { [weak self] result in
            guard let self = self else { return }

            switch result {
            case .success(let QRpaymentProcessEvent):
                switch QRpaymentProcessEvent {
                case .completed(let transaction):
                    self.sdkFeedback.append(" - Finish: Success. Refunded transaction id: \(transaction.transactionId)")
                    self.transactionId = transaction.transactionId
                default:
                    break
                }
            case .failure(let error):
                self.sdkFeedback.append("BLIK Refund: Error: \(error)")
            }
        }
        .store(in: &disposables)
    }
}

extension Date {
    /// The sample app's formatting, which example 78 uses.
    func toFormattedString() -> String { ISO8601DateFormatter().string(from: self) }
}
