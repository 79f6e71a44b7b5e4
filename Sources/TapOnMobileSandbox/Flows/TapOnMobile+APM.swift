import Foundation
import SandboxWire

/// The one flow of every APM operation, QR or BLIK, payment or refund (docs/qr-payments.md,
/// docs/blik.md): log in, read the terminal's settings, post, then poll the host every pulling
/// interval up to the operation's timeout on ``SandboxConfiguration/apmClock`` (else
/// ``SandboxConfiguration/clock``), and remember a finished payment as the last transaction.
/// What differs is an ``APMOperation``: the path, the body, the events shown and the timings.
extension TapOnMobile {
    /// What a terminal's dynamic properties leave unsaid: the seed's defaults.
    enum APMTimings {
        static let timeout: TimeInterval = 300
        static let pulling: TimeInterval = 5
        static let refundTimeout: TimeInterval = 60
        /// Past the deadline, one more poll after this long: the host applies its own deadline on read.
        static let grace: TimeInterval = 2
    }

    /// What differs between the APM operations.
    struct APMOperation: Sendable {
        /// Where it is posted (`/terminal/v1/apm/{qr,blik}/{payments,refunds}`).
        var path: String
        /// The body, made once the terminal's settings are read (a QR payment picks its brand
        /// there), or the refusal that ends the operation before the post; `announce` shows events
        /// before the post (a QR payment's brands).
        var body: @Sendable (_ info: TerminalInfo, _ announce: (APMTransactionProcessEvent) -> Void) -> Result<any Encodable & Sendable, TapOnMobileError>
        /// How often and how long to poll, from the terminal's dynamic properties.
        var pulling: @Sendable (DynamicProperties) -> TimeInterval
        var timeout: @Sendable (DynamicProperties) -> TimeInterval
        /// The event the answer of the post is shown as: a QR payment's `.displayQR`, a refund's
        /// `.processing`; none for a BLIK payment, which shows `.processing` once the status reads `ONGOING`.
        var created: (@Sendable (APMTransaction) -> APMTransactionProcessEvent)?
        /// A refund is not the last transaction, and shows no `.processing` while it is polled.
        var isRefund = false
    }

    /// Runs `operation`: its events, ending with `.completed(transaction)` whatever the final
    /// status, or with one failure.
    ///
    /// - Parameter refusal: a refusal known before any call (a BLIK code that does not fit its
    ///   container), told once the device is known to be logged in.
    func apm(
        _ operation: APMOperation, refusal: TapOnMobileError? = nil
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        stream { emit in await self.run(operation, refusal: refusal, emit: emit) }
    }

    private func run(
        _ operation: APMOperation, refusal: TapOnMobileError?,
        emit: @escaping @Sendable (Result<APMTransactionProcessEvent, TapOnMobileError>) -> Void
    ) async {
        let loggedIn: LoggedIn
        do throws(TapOnMobileError) {
            loggedIn = try self.loggedIn()
        } catch {
            return emit(.failure(error))
        }
        if let refusal { return emit(.failure(refusal)) }
        let info: TerminalInfo
        switch await send(loggedIn.client, "GET", "/terminal/v1/terminal", bearer: loggedIn.token, as: TerminalInfo.self) {
        case .failure(let error): return emit(.failure(error))
        case .success(let answer): info = answer
        }
        let body: any Encodable & Sendable
        switch operation.body(info, { event in emit(.success(event)) }) {
        case .failure(let error): return emit(.failure(error))
        case .success(let made): body = made
        }
        let created: Result<APMTransaction, TapOnMobileError> = await send(
            loggedIn.client, "POST", operation.path, body: body as any Encodable, bearer: loggedIn.token, idempotent: true,
            as: APMTransaction.self)
        let transaction: APMTransaction
        switch created {
        case .failure(let error): return emit(.failure(error))
        case .success(let answer): transaction = answer
        }
        if let shown = operation.created { emit(.success(shown(transaction))) }
        let timings = info.dynamicProperties
        let processing: (@Sendable (APMTransaction) -> Void)? = operation.isRefund ? nil : { @Sendable in emit(.success(.processing($0))) }
        let final = await poll(
            transaction, loggedIn: loggedIn, every: operation.pulling(timings), for: operation.timeout(timings), processing: processing)
        switch final {
        case .failure(let error):
            emit(.failure(error))
        case .success(let finished):
            if !operation.isRefund { remember(finished.toTransactionDetail()) }
            emit(.success(.completed(finished)))
        }
    }

    /// A QR or BLIK refund: made on `path`, then polled every `pulling` seconds of the terminal's
    /// timings up to its `apmRefundTimeout`.
    func apmRefund(
        path: String, refundedTransactionId: String, refundAmount: Int, reference: String?,
        pulling: @escaping @Sendable (DynamicProperties) -> TimeInterval
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        apm(
            APMOperation(
                path: path,
                body: { _, _ in
                    .success(APMBodies.Refund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference))
                },
                pulling: pulling, timeout: { $0.apmRefundTimeout.map(TimeInterval.init) ?? APMTimings.refundTimeout },
                created: { .processing($0) }, isRefund: true))
    }

    /// Polls the host until the transaction is final or `timeout` (plus a grace) passed on the APM
    /// clock; then once more, and the host's answer (its deadline applied) is the result.
    ///
    /// - Parameter processing: Told once, when the status first reads `ONGOING`.
    func poll(
        _ start: APMTransaction, loggedIn: LoggedIn, every pulling: TimeInterval, for timeout: TimeInterval,
        processing: (@Sendable (APMTransaction) -> Void)?
    ) async -> Result<APMTransaction, TapOnMobileError> {
        let clock = configuration.apmClock ?? configuration.clock
        let began = clock.now()
        let deadline = timeout + APMTimings.grace
        let path = "/terminal/v1/apm/transactions/\(TerminalClient.encode(start.transactionId))"
        var current = start
        var announced = false
        func announce() {
            guard !announced, current.transactionStatus == .ONGOING, let processing else { return }
            announced = true
            processing(current)
        }
        announce()
        while !current.isFinal {
            let elapsed = clock.now().timeIntervalSince(began)
            let last = elapsed >= deadline
            if !last { await clock.sleep(for: min(max(pulling, 0.1), deadline - elapsed)) }
            if Task.isCancelled { return .success(current) }
            switch await send(loggedIn.client, "GET", path, bearer: loggedIn.token, as: APMTransaction.self) {
            case .success(let answer):
                current = answer
                announce()
            case .failure(.network) where !last:
                // A poll that got no answer is tried again at the next interval.
                break
            case .failure(let error):
                return .failure(error)
            }
            if last { break }
        }
        return .success(current)
    }
}
