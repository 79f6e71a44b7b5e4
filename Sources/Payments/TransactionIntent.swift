import DeviceTransport
import Foundation
import SandboxWire
import SimulatedReader
import Synchronization

/// Why ``TransactionIntentFactory/createTransactionIntent(type:listener:completion:)`` made no intent.
public enum TransactionIntentError: Error, Sendable, Equatable {
    /// ``PaymentsSDK/configure(paymentsConfiguration:)`` was not called.
    case sdkNotConfigured
}

/// One payment, refund or cancel, driven by its listener's answers (Geopagos seed 003).
///
/// Retain it while it runs. Creating another intent aborts this one (its listener hears
/// ``TransactionError/aborted``).
public final class TransactionIntent: Sendable {
    public let type: TransactionType
    let run: TransactionRun

    init(type: TransactionType, run: TransactionRun) {
        self.type = type
        self.run = run
    }

    /// Stops the transaction where it is: a card screen closes and nothing more is sent; the
    /// listener hears ``TransactionError/aborted``. A transaction already sent to the host is not
    /// undone (cancel it with a `.cancel` intent).
    public func abort() {
        Task { await run.abort(message: "The app aborted the transaction.") }
    }
}

/// Makes transaction intents.
public enum TransactionIntentFactory {
    private static let running = Mutex<TransactionRun?>(nil)

    /// Creates an intent of `type` whose states go to `listener` (one at a time, on
    /// ``GeopagosSandbox/callbackQueue``: the main queue on Apple platforms), and starts it:
    /// the listener is asked for the device first. `completion` is called at once, before any state.
    public static func createTransactionIntent(
        type: TransactionType, listener: any SDKTransactionListener,
        completion: (Result<TransactionIntent, TransactionIntentError>) -> Void
    ) {
        guard let configuration = PaymentsSDK.configuration else { return completion(.failure(.sdkNotConfigured)) }
        let box = ListenerBox(listener, queue: GeopagosSandbox.current.callbackQueue)
        let run = TransactionRun(type: type, listener: box, installers: configuration.readerInstallers.map(\.engine))
        let previous = running.withLock { current -> TransactionRun? in
            defer { current = run }
            return current
        }
        completion(.success(TransactionIntent(type: type, run: run)))
        Task {
            if let previous { await previous.abort(message: "A new transaction intent started.") }
            await run.start()
        }
    }
}

/// The app's listener, called by one transaction's run at a time, never two calls at once: on
/// `queue` (serial, so in order) when there is one, else on the run's own task.
final class ListenerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var listener: (any SDKTransactionListener)?
    private let queue: DispatchQueue?

    init(_ listener: any SDKTransactionListener, queue: DispatchQueue?) {
        self.listener = listener
        self.queue = queue
    }

    private var current: (any SDKTransactionListener)? { lock.withLock { listener } }

    func reader(_ state: ReaderState) { deliver { $0.onReaderStateChanged(state: state) } }
    func transaction(_ state: SDKTransactionState) { deliver { $0.onTransactionStateChanged(state: state) } }

    /// Calls the listener with a state; a state sent before ``release()`` reaches it even when the
    /// queue runs it later.
    private func deliver(_ call: @escaping @Sendable (any SDKTransactionListener) -> Void) {
        guard let listener = current else { return }
        let app = AppObject(listener)
        AppCallbacks.deliver(on: queue) { call(app.object) }
    }
    /// After the last state: the intent no longer keeps the app's object.
    func release() { lock.withLock { listener = nil } }
}

/// A transaction's steps, one at a time.
actor TransactionRun {
    /// What the listener answered through a callback.
    enum Reply: Sendable {
        case device(Device)
        case readConfig(ReadConfig)
        case emvApp(EMVApp)
        case payment(PaymentConfirmation)
        case refund(RefundConfirmation)
        case cancel(CancelConfirmation)
        case reject
        case recover
    }

    /// Ended: aborted, failed or approved; nothing more reaches the listener.
    private struct Ended: Error {}

    let type: TransactionType
    let listener: ListenerBox
    let installers: [ReaderEngine]
    private var finished = false
    private let waiter = Waiter()
    private var step = 0
    private var engine: ReaderEngine?

    init(type: TransactionType, listener: ListenerBox, installers: [ReaderEngine]) {
        self.type = type
        self.listener = listener
        self.installers = installers
    }

    // MARK: - Talking to the listener

    private func tell(_ state: SDKTransactionState) async throws(Ended) {
        guard !finished else { throw Ended() }
        listener.transaction(state)
    }

    private func tell(_ state: ReaderState) async {
        guard !finished else { return }
        listener.reader(state)
    }

    /// Shows `make(callback)` and waits for the callback; an abort ends the wait.
    private func ask(_ make: (@escaping @Sendable (Reply) -> Void) -> SDKTransactionState) async throws(Ended) -> Reply {
        guard !finished else { throw Ended() }
        step += 1
        let current = step
        // The callback resumes the wait itself, from whatever thread the app calls it on: no task
        // has to be scheduled for the answer to arrive.
        let waiter = waiter
        let callback: @Sendable (Reply) -> Void = { reply in waiter.answer(reply, step: current) }
        let state = make(callback)
        let reply = await withCheckedContinuation { continuation in
            waiter.wait(step: current, continuation)
            listener.transaction(state)
        }
        guard let reply else { throw Ended() }
        return reply
    }

    /// The last state: a failure the listener is told, then nothing more.
    private func fail(_ error: TransactionError, _ message: String?) async -> Ended {
        try? await tell(.nonRecoverableError(error: error, message: message))
        await end()
        return Ended()
    }

    private func end() async {
        guard !finished else { return }
        finished = true
        engine?.endTransaction()
        listener.release()
    }

    func abort(message: String) async {
        guard !finished else { return }
        try? await tell(.nonRecoverableError(error: .aborted, message: message))
        await engine?.reader.cancelRead()
        await end()
        waiter.answer(nil, step: nil)
    }

    // MARK: - The flow

    func start() async {
        do throws(Ended) {
            try await run()
        } catch {}
    }

    private func run() async throws(Ended) {
        guard case .device(let device) = try await ask({ callback in .provideDevice(provideDeviceCallback: { callback(.device($0)) }) })
        else { throw Ended() }
        guard let engine = installers.first(where: { $0.device == device }) else {
            throw await fail(.deviceNotFound, "No registered reader installer offers \(device.name) (\(device.id)).")
        }
        self.engine = engine
        if engine.connection == nil {
            await tell(.connecting(device))
            if case .failure(let failure) = await engine.prepare() {
                await tell(ReaderState.notConnected)
                throw await fail(.readerNotConnected, "The reader could not be connected: \(failure).")
            }
        }
        guard engine.beginTransaction(), let connection = await engine.refreshedConnection() else {
            throw await fail(.readerNotConnected, "The reader is busy preparing or clearing its connection.")
        }
        let info = ReaderInfo(
            terminalId: connection.session.terminalId, country: connection.session.country, currency: connection.session.currency,
            osVersion: engine.sandbox.device.osVersion)
        await tell(.connected(device, info, .idle))

        guard case .readConfig(let config) = try await ask({ callback in
            .provideReadConfig(provideReadConfigCallback: { callback(.readConfig($0)) })
        }) else { throw Ended() }
        let total = config.transactionTotal.gross
        guard config.readModes.contains(.nfc), total.currency.code == connection.session.currency, total.minorUnits > 0 else {
            throw await fail(
                .invalidReadConfig,
                "Tap to Pay reads .nfc, in the token's currency \(connection.session.currency), an amount above 0; not \(config.readModes.map(\.rawValue)) \(total).")
        }
        if type == .payment {
            let validation = ValidateRequest(
                transactionServiceType: "PAYMENT", requestedAmount: total.minorUnits, countryCode: connection.session.country, reference: nil,
                tipAmount: nil, transactionId: nil)
            if case .refused(_, let code, let message) = await engine.call("POST", "/terminal/v1/transactions/validate", body: validation, as: NoAnswer.self) {
                throw await fail(.refused(code: code ?? "refused"), message)
            }
        }

        let read = try await readCard(engine, device: device, info: info, connection: connection, amount: total)
        let card = Card(
            brand: read.brand?.rawValue ?? "UNKNOWN", maskedPan: read.maskedPan ?? "", last4: String((read.maskedPan ?? "").suffix(4)),
            application: EMVApp(aid: read.aid ?? "", label: read.applicationLabel ?? ""), readMode: .nfc)
        let confirmation = try await ask { callback in
            let reject: @Sendable () -> Void = { callback(.reject) }
            switch type {
            case .payment: return .confirmPayment(card: card, confirmCallback: { callback(.payment($0)) }, rejectCallback: reject)
            case .refund: return .confirmRefund(card: card, confirmCallback: { callback(.refund($0)) }, rejectCallback: reject)
            case .cancel: return .confirmCancel(card: card, confirmCallback: { callback(.cancel($0)) }, rejectCallback: reject)
            }
        }
        if case .reject = confirmation { throw await fail(.rejected, "The app rejected the card; nothing was sent.") }
        // Apple's encrypted card data lives 120 s from the read (seed 001), on the reader's clock.
        let now = Int64(((engine.sandbox.clock.now().timeIntervalSince1970 + connection.offset) * 1000).rounded())
        guard now <= read.validUntil else {
            throw await fail(.cardDataExpired, "More than 120 s passed between the card read and the confirmation: a new card read is needed.")
        }
        await tell(.connected(device, info, .processing(.nfc)))
        let installments: Int
        let answer: HostCall.Answer<TransactionDetail>
        switch confirmation {
        case .payment(let payment):
            guard (1...24).contains(payment.installments) else {
                throw await fail(.invalidReadConfig, "installments must be 1 to 24, not \(payment.installments).")
            }
            installments = payment.installments
            let sale = SaleRequest(
                currency: total.currency.code, requestedAmount: total.minorUnits, reference: payment.reference,
                countryCode: connection.session.country, cardPayload: read.sealed)
            answer = await engine.call("POST", "/terminal/v1/transactions/sale", body: sale)
        case .refund(let refund):
            installments = 1
            let body = RefundRequest(
                currency: total.currency.code, requestedAmount: total.minorUnits, transactionId: refund.originalTransactionId,
                reference: refund.reference, cardPayload: read.sealed)
            answer = await engine.call("POST", "/terminal/v1/transactions/refund", body: body)
        case .cancel(let cancel):
            installments = 1
            let path = "/terminal/v1/transactions/\(DeviceTransport.encode(cancel.transactionId))/reversal"
            let body = PaymentBodies.Reversal(isCancelledByUser: false, expectedAmount: total.minorUnits, cardPayload: read.sealed)
            answer = await engine.call("POST", path, body: body)
        default:
            throw Ended()
        }
        var detail: TransactionDetail
        switch answer {
        case .value(let value): detail = value
        case .refused(_, let code, let message): throw await fail(.refused(code: code ?? "refused"), message)
        case .notSent(let why): throw await fail(.connectionFailed, "Nothing was sent: \(why).")
        case .noAnswer(let why): throw await fail(.connectionFailed, "The outcome is unknown (\(why)): look the transaction up before trying again.")
        }
        if detail.transactionStatus == .PIN_REQUESTED {
            detail = try await enterPin(engine, detail: detail, device: device, info: info, connection: connection)
        }
        let approvedStatus: TransactionStatus = type == .cancel ? .CANCELLED : .CLEARED
        guard detail.transactionStatus == approvedStatus else {
            throw await fail(.declined(code: detail.responseCode ?? "05"), detail.responseMsg ?? "Declined: \(detail.transactionStatus.rawValue).")
        }
        await tell(.connected(device, info, .idle))
        let approved = TransactionApproved(
            transactionId: detail.transactionId, type: type, amount: Money(minorUnits: detail.transactionAmount, currency: total.currency),
            authorizationCode: detail.authId.isEmpty ? nil : detail.authId, card: card, installments: installments,
            approvedAt: detail.transactionDate, status: detail.transactionStatus.rawValue)
        try await tell(.approved(transactionApproved: approved))
        await end()
    }

    /// Apple's card screen until a card is read: a 40 s timeout pauses the transaction
    /// (``TransactionError/cardReadTimeout``) until the app's recover callback (Try Again).
    private func readCard(
        _ engine: ReaderEngine, device: Device, info: ReaderInfo, connection: ReaderEngine.Connection, amount: Money
    ) async throws(Ended) -> SealedRead {
        let request = GeopagosSandbox.CardRequest(type: type, amount: amount.minorUnits, currency: amount.currency.code)
        var attempts: [CardScript.Attempt] = []
        var pinOnRequest = PinEntry.correct
        while true {
            // One showing of the screen at a time: the script's next attempt, else a customer a test
            // queued on the sandbox for the terminal, else the provider's next script.
            if attempts.isEmpty, let script = await engine.scriptedCustomer(terminalId: connection.session.terminalId) ?? engine.sandbox.cardScripts?(request) {
                attempts = script.attempts.isEmpty ? [.noTap] : script.attempts
                pinOnRequest = script.pinOnRequest
            }
            if !attempts.isEmpty {
                await engine.reader.present(CardScript(attempts: [attempts.removeFirst()], pinOnRequest: pinOnRequest))
            }
            await tell(.connected(device, info, .waitingForCard))
            let listener = listener
            let result: ReadResult
            do throws(ReaderError) {
                result = try await engine.reader.read(
                    amount: amount.minorUnits, currency: amount.currency.code, region: connection.session.region,
                    terminalId: connection.session.terminalId, readerKey: connection.readerKey, serverTimeOffset: connection.offset,
                    onEvent: { event in
                    let status: ReaderStatus? =
                        switch event {
                        case .cardRead: .processing(.nfc)
                        case .pinEntryRequested: .requestingPin
                        case .pinEntered: .processing(.nfc)
                        default: nil
                        }
                    if let status { listener.reader(.connected(device, info, status)) }
                    },
                    selectApplication: { [weak self] applications in
                        // The card has several applications: the listener picks one (seed 003's selectEMVApp).
                        await self?.selectApplication(applications)
                    })
            } catch {
                throw await fail(.readerNotConnected, "The card could not be read: \(error.message).")
            }
            if finished { throw Ended() }
            switch result.value {
            case .payload(let read):
                return read
            case .outcome(.timeout):
                guard case .recover = try await ask({ callback in
                    .recoverableError(error: .cardReadTimeout, recoverCallback: { callback(.recover) })
                }) else { throw Ended() }
            case .outcome(let outcome):
                throw await fail(.cardReadCancelled, "The card screen ended: \(outcome.rawValue).")
            }
        }
    }

    /// `selectEMVApp` for a card with several applications; nil (aborted, or an application the card
    /// does not have) cancels the read.
    private func selectApplication(_ applications: [CardApplication]) async -> CardApplication? {
        let offered = applications.map { EMVApp(aid: $0.aid, label: $0.applicationLabel) }
        guard case .emvApp(let chosen)? = try? await ask({ callback in
            .selectEMVApp(availableAIDs: offered, selectEMVAppCallback: { callback(.emvApp($0)) })
        }) else { return nil }
        return applications.first { $0.aid == chosen.aid }
    }

    /// The host asked for the PIN after the read (`PIN_REQUESTED`): the customer types it on Apple's screen.
    private func enterPin(
        _ engine: ReaderEngine, detail: TransactionDetail, device: Device, info: ReaderInfo, connection: ReaderEngine.Connection
    ) async throws(Ended) -> TransactionDetail {
        let read: ReadResult
        do throws(ReaderError) {
            read = try await engine.reader.enterPin(
                region: connection.session.region, terminalId: connection.session.terminalId, readerKey: connection.readerKey,
                serverTimeOffset: connection.offset)
        } catch {
            throw await fail(.readerNotConnected, "The PIN could not be read: \(error.message).")
        }
        guard let sealed = read.sealedPayload else { throw await fail(.cardReadCancelled, "No PIN was entered.") }
        let path = "/terminal/v1/transactions/\(DeviceTransport.encode(detail.transactionId))/pin"
        switch await engine.call("POST", path, body: PaymentBodies.Pin(pinPayload: sealed), as: TransactionDetail.self) {
        case .value(let answered): return answered
        case .refused(_, let code, let message): throw await fail(.refused(code: code ?? "refused"), message)
        case .notSent(let why), .noAnswer(let why): throw await fail(.connectionFailed, why)
        }
    }
}

/// The one step a run waits for: a callback answers it once; a second call, or one for an earlier
/// step, is ignored.
final class Waiter: @unchecked Sendable {
    private let lock = NSLock()
    private var slot: (step: Int, continuation: CheckedContinuation<TransactionRun.Reply?, Never>)?

    func wait(step: Int, _ continuation: CheckedContinuation<TransactionRun.Reply?, Never>) {
        lock.withLock { slot = (step, continuation) }
    }

    /// Resumes the wait of `step` (any step when nil: an abort) with `reply`.
    func answer(_ reply: TransactionRun.Reply?, step: Int?) {
        let continuation = lock.withLock { () -> CheckedContinuation<TransactionRun.Reply?, Never>? in
            guard let current = slot, step == nil || current.step == step else { return nil }
            slot = nil
            return current.continuation
        }
        continuation?.resume(returning: reply)
    }
}

extension Money {
    /// `minorUnits` of `currency`, as the host counts them.
    init(minorUnits: Int, currency: Currency) {
        var amount = Decimal(minorUnits)
        for _ in 0..<currency.exponent { amount /= 10 }
        self.amount = amount
        self.currency = currency
        self.minorUnits = minorUnits
    }
}

extension PaymentsSDK {
    /// The sandbox's version of the Payments SDK.
    public static let version = "1.0.0-sandbox"
}
