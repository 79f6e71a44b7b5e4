import Foundation
import Payments
import Synchronization
import TapToPayHardware

// An app written from the Geopagos seeds' snippets (001: the installer with its three closures,
// the configuration, the support check, discovery, account linking; 003: the intent and the
// listener's full switch), changed only where a snippet leaves a blank ("Provide payment
// confirmation data", "Obtain a new token"): what it does there is what the test scripts.

/// What the app's backend does: buys reader tokens from the Geopagos host.
struct Backend: Sendable {
    let readerToken: @Sendable (TokenRequestReason) async -> String?
}

/// What the merchant and the app do at each blank of the snippets.
struct Script: Sendable {
    var amount: Decimal = 100
    var confirm: @Sendable (SDKTransactionState) -> Confirmation = { _ in .confirm }
    var linking: @Sendable (AccountLinkingReason) -> AccountLinkingDecision = { _ in .confirm }
    var tryAgain = true
    /// Which application of a card with several the merchant picks; nil: the seed's `availableAIDs.first`.
    var pickEMVApp: (@Sendable ([EMVApp]) -> EMVApp?)?

    enum Confirmation: Sendable {
        case confirm
        case reject
        /// Confirm after the test's hook ran (e.g. moved the reader's clock).
        case confirmAfter(@Sendable () async -> Void)
    }
}

/// Everything the app saw, in order, and the queue each line was seen on (the label a test gave
/// the queue with ``queueKey``; nil for any other).
final class Seen: Sendable {
    static let queueKey = DispatchSpecificKey<String>()
    private let lines = Mutex<[(line: String, queue: String?)]>([])
    func add(_ line: String) {
        let queue = DispatchQueue.getSpecific(key: Self.queueKey)
        lines.withLock { $0.append((line, queue)) }
    }
    var all: [String] { lines.withLock { $0.map(\.line) } }
    var entries: [(line: String, queue: String?)] { lines.withLock { $0 } }
}

final class SeedCheckout: SDKTransactionListener, @unchecked Sendable {
    let seen = Seen()
    let tapToPayInstaller: TapToPayReaderInstaller
    var transaction: TransactionIntent?
    var selectedDevice: Device
    let script: Mutex<Script>
    /// The ids and references the confirm steps name.
    let refundOf = Mutex<String?>(nil)
    let cancelOf = Mutex<String?>(nil)
    let finished = Mutex<[String]>([])

    init(backend: Backend, script: Script, endpoint: String) throws {
        let seen = seen
        let scripted = Mutex(script)
        self.script = scripted
        let linking = script.linking
        tapToPayInstaller = TapToPayReaderInstaller(
            tokenProvider: { reason in
                seen.add("token: \(reason)")
                switch reason {
                case .setup:
                    // Provide a token, force  account linking if required.
                    guard let token = await backend.readerToken(reason) else { return .cancel }
                    return .provide(token, requiresRelink: false)
                case let .rejected(rejection):
                    // Obtain a new token or cancel the connection.
                    _ = rejection
                    guard let token = await backend.readerToken(reason) else { return .cancel }
                    return .provide(token, requiresRelink: false)
                }
            },
            onAccountLinkingRequired: { reason in
                // Show your app's explanatory message before Apple presents its terms.
                seen.add("linking: \(reason)")
                return linking(reason)
            },
            onReaderNotice: { notice in
                // Update your UI or telemetry with the informational notice.
                seen.add("notice: \(notice)")
            }
        )
        selectedDevice = tapToPayInstaller.device

        let configuration = try PaymentsConfiguration.Builder(
            endpoint: URL(string: endpoint)!,
            readerInstallers: [tapToPayInstaller]
        ).build()

        PaymentsSDK.configure(paymentsConfiguration: configuration)

        var readerInstallers: [any ReaderInstaller] = [
            /* Other readers */
        ]
        if tapToPayInstaller.isTapToPaySupported() {
            readerInstallers.append(tapToPayInstaller)
        }
        seen.add("supported: \(!readerInstallers.isEmpty)")
    }

    func handleAccountLinking(
        reason: AccountLinkingReason
    ) async -> AccountLinkingDecision {
        switch reason {
        case .setup:
            // Explain that Apple terms will be displayed.
            return .confirm
        case .deniedByUser:
            // Explain that the merchant rejected Apple's terms.
            // Return .confirm to show the terms again, or .cancel to stop.
            return .confirm
        }
    }

    @MainActor func showDiscovery(on viewController: UIViewController) {
        tapToPayInstaller.presentTapToPayDiscovery(on: viewController) { [seen] result in
            switch result {
            case .success:
                seen.add("discovery: success")
            case let .fail(error, message):
                // Handle the failure.
                seen.add("discovery: \(error) \(message ?? "")")
            }
        }
    }

    func start(_ type: TransactionType) {
        TransactionIntentFactory.createTransactionIntent(
            type: type,
            listener: self
        ) { result in
            switch result {
            case let .success(transactionIntent):
                // Retain the transaction intent.
                self.transaction = transactionIntent
            case let .failure(error):
                // Handle the creation error.
                self.seen.add("creation failed: \(error)")
            }
        }
    }

    func onReaderStateChanged(state: ReaderState) {
        switch state {
        case .notConnected:
            seen.add("reader: notConnected")
        case let .connecting(device):
            seen.add("reader: connecting \(device.name)")
        case let .connected(device, readerInfo, status):
            seen.add("reader: connected \(device.name) \(readerInfo.terminalId) \(status)")
        @unknown default:
            break
        }
    }

    func onTransactionStateChanged(state: SDKTransactionState) {
        let script = script.withLock { $0 }
        switch state {
        case let .provideDevice(provideDeviceCallback: provideDeviceCallback):
            seen.add("provideDevice")
            provideDeviceCallback(selectedDevice)

        case let .provideReadConfig(provideReadConfigCallback: provideReadConfigCallback):
            seen.add("provideReadConfig")
            let total = TransactionTotal(
                gross: try! Money(amount: script.amount, currency: .ars)
            )
            let readConfig = ReadConfig(
                readModes: [.swipe, .chip, .nfc],
                timeout: 10,
                transactionTotal: total
            )
            provideReadConfigCallback(readConfig)

        case let .selectEMVApp(
            availableAIDs: availableAIDs,
            selectEMVAppCallback: selectEMVAppCallback
        ):
            seen.add("selectEMVApp \(availableAIDs.map(\.label).joined(separator: ", "))")
            if let pick = script.pickEMVApp, let emvApp = pick(availableAIDs) {
                selectEMVAppCallback(emvApp)
            } else if let emvApp = availableAIDs.first {
                selectEMVAppCallback(emvApp)
            }

        case let .confirmPayment(
            card: card,
            confirmCallback: confirmCallback,
            rejectCallback: rejectCallback
        ):
            // Provide payment confirmation data or reject the payment.
            seen.add("confirmPayment \(card.brand) \(card.last4)")
            seen.add("application \(card.application.label)")
            answer(script.confirm(state), confirm: { confirmCallback(PaymentConfirmation(installments: 3)) }, reject: rejectCallback)

        case let .confirmRefund(
            card: card,
            confirmCallback: confirmCallback,
            rejectCallback: rejectCallback
        ):
            // Provide refund confirmation data or reject the refund.
            seen.add("confirmRefund \(card.brand) \(card.last4)")
            let original = refundOf.withLock { $0 } ?? ""
            answer(script.confirm(state), confirm: { confirmCallback(RefundConfirmation(originalTransactionId: original)) }, reject: rejectCallback)

        case let .confirmCancel(
            card: card,
            confirmCallback: confirmCallback,
            rejectCallback: rejectCallback
        ):
            // Provide cancellation confirmation data or reject the cancellation.
            seen.add("confirmCancel \(card.brand) \(card.last4)")
            let original = cancelOf.withLock { $0 } ?? ""
            answer(script.confirm(state), confirm: { confirmCallback(CancelConfirmation(transactionId: original)) }, reject: rejectCallback)

        case let .approved(transactionApproved: transactionApproved):
            // Handle an approved payment, refund, or cancellation.
            seen.add("approved \(transactionApproved.type) \(transactionApproved.status) \(transactionApproved.amount)")
            finished.withLock { $0.append(transactionApproved.transactionId) }

        case let .recoverableError(
            error: error,
            recoverCallback: recoverCallback
        ):
            // Resolve the recoverable error and call recoverCallback.
            seen.add("recoverableError \(error)")
            if script.tryAgain { recoverCallback() }

        case let .nonRecoverableError(error: error, message: message):
            // Start a new transaction after handling the error.
            seen.add("message: \(message ?? "")")
            seen.add("nonRecoverableError \(error)")
            finished.withLock { $0.append("error") }

        @unknown default:
            break
        }
    }

    private func answer(_ decision: Script.Confirmation, confirm: @escaping @Sendable () -> Void, reject: @escaping @Sendable () -> Void) {
        switch decision {
        case .confirm: confirm()
        case .reject: reject()
        case .confirmAfter(let hook):
            Task {
                await hook()
                confirm()
            }
        }
    }
}
