import Foundation
import SandboxWire
#if canImport(UIKit)
import UIKit
#endif

/// QR wallet payments (seed "QR Payments", "Cancel QR Payments", "QR Refunds";
/// docs/qr-payments.md).
///
/// The host makes the order at the wallet provider and answers the QR; the device only polls its
/// host, every `apmPulling` seconds of the terminal's dynamic properties, up to `apmTimeout`
/// (refunds: `apmRefundTimeout`). The waits run on ``SandboxConfiguration/apmClock`` (else
/// ``SandboxConfiguration/clock``), so a test moves time instead of waiting.
extension TapOnMobile {
    /// What a terminal's dynamic properties leave unsaid: the seed's defaults.
    enum APMTimings {
        static let timeout: TimeInterval = 300
        static let pulling: TimeInterval = 5
        static let refundTimeout: TimeInterval = 60
        /// Past the deadline, one more poll after this long: the host applies its own deadline on read.
        static let grace: TimeInterval = 2
    }

    /// Takes a QR wallet payment (seed `doQRPayment`).
    ///
    /// ```swift
    /// for await result in TapOnMobile.shared.doQRPayment(requestedAmount: 1250, tipAmount: nil, reference: "INV-1") {
    ///     switch result {
    ///     case .success(.displayQR(let order)): print("Scan \(order.qrCode ?? "")")
    ///     case .success(.completed(let order)): print(order.transactionStatus, order.declineReason ?? "")
    ///     case .success(let event): print("update: \(event)")
    ///     case .failure(let error): print("QR payment: Error: \(error)")
    ///     }
    /// }
    /// ```
    ///
    /// The brand is ``SandboxConfiguration/qrBrand`` when set, else the terminal's first active
    /// `apmConfig` brand (with a container a real SDK lets the customer pick; the sandbox draws no
    /// screens, so the choice is the configuration's).
    ///
    /// - Parameters:
    ///   - requestedAmount: The total in minor units, tip included (11.91 € is 1191).
    ///   - tipAmount: The part of `requestedAmount` that is a tip.
    ///   - reference: The merchant's reference, or `nil`.
    ///   - container: The view controller for the SDK's own screens; the sandbox shows none for
    ///     QR payments, so it changes nothing here (always `nil` off Apple platforms).
    ///   - paymentSolutionReceiptHandling: Accepted for the seed's signature; changes nothing without screens.
    /// - Returns: Events, ending with `.completed(order)` whatever the final status, or with one
    ///   failure (the host's refusal: ``TransactionError`` `notAllowed` for `apm_not_enabled` or
    ///   `apm_brand_unavailable`, `busy`, `invalidAmount` …).
    @_disfavoredOverload
    public func doQRPayment(
        requestedAmount: Int, tipAmount: Int?, reference: String?, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        let chosen = configuration.qrBrand
        return stream { emit in
            let loggedIn: LoggedIn
            do throws(TapOnMobileError) {
                loggedIn = try self.loggedIn()
            } catch {
                return emit(.failure(error))
            }
            let info: TerminalInfo
            switch await self.send(loggedIn.client, "GET", "/terminal/v1/terminal", bearer: loggedIn.token, as: TerminalInfo.self) {
            case .failure(let error): return emit(.failure(error))
            case .success(let answer): info = answer
            }
            let brands = info.apmEnabled ? info.apmConfig.filter(\.isActive).map(\.brandName) : []
            guard let brand = chosen ?? brands.first else {
                return emit(
                    .failure(
                        .host(status: 403, code: .apmNotEnabled, message: "Terminal \(info.terminalId) takes no QR wallet payments.",
                              field: nil)))
            }
            emit(.success(.displayBrands(brands)))

            let created = await self.send(
                loggedIn.client, "POST", "/terminal/v1/apm/qr/payments",
                body: APMBodies.Payment(requestedAmount: requestedAmount, tipAmount: tipAmount, reference: reference, brand: brand),
                bearer: loggedIn.token, idempotent: true, as: APMTransaction.self)
            guard case .success(let order) = created else {
                if case .failure(let error) = created { emit(.failure(error)) }
                return
            }
            emit(.success(.displayQR(order)))
            let timings = info.dynamicProperties
            let final = await self.poll(
                order, loggedIn: loggedIn, every: timings.apmPulling.map(TimeInterval.init) ?? APMTimings.pulling,
                for: timings.apmTimeout.map(TimeInterval.init) ?? APMTimings.timeout,
                processing: { emit(.success(.processing($0))) })
            switch final {
            case .failure(let error):
                emit(.failure(error))
            case .success(let order):
                self.remember(order.toTransactionDetail())
                emit(.success(.completed(order)))
            }
        }
    }

    /// Ends a QR payment the customer has not paid (seed `cancelQRPayment`): `USER_CANCELLED`, and
    /// the order is closed at the wallet.
    ///
    /// ```swift
    /// let cancelled = try await TapOnMobile.shared.cancelQRPayment(transactionId: id, reason: "customer left").get()
    /// ```
    ///
    /// - Parameters:
    ///   - transactionId: The QR payment.
    ///   - reason: Why, kept on the transaction; may be empty.
    /// - Returns: The cancelled transaction, or the host's refusal: `apm_already_paid`
    ///   (``TransactionError`` `notCancellable`: refund it instead) or `apm_order_closed` (`wrongState`).
    public func cancelQRPayment(transactionId: String, reason: String = "") async -> Result<APMTransaction, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            await send(
                loggedIn.client, "POST", "/terminal/v1/apm/transactions/\(TerminalClient.encode(transactionId))/cancel",
                body: APMBodies.Cancel(reason: reason), bearer: loggedIn.token, idempotent: true, as: APMTransaction.self)
        }
    }

    /// Refunds all or part of a cleared QR payment (seed `doQRRefund`; the seed's other spelling
    /// ``doQRefund(refundedTransactionId:refundAmount:reference:)`` is the same call).
    ///
    /// ```swift
    /// for await result in TapOnMobile.shared.doQRRefund(refundedTransactionId: id, refundAmount: 500, reference: nil) {
    ///     if case .success(.completed(let refund)) = result { print(refund.transactionStatus) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - refundedTransactionId: The cleared QR payment.
    ///   - refundAmount: Minor units, at most what is left of the payment.
    ///   - reference: The merchant's reference, or `nil`.
    /// - Returns: `.processing(refund)` (status `ONGOING`), then `.completed(refund)` once the wallet
    ///   answered (`CLEARED`, `DECLINED`) or `apmRefundTimeout` passed (`TIMEOUT`); or one failure.
    @_disfavoredOverload
    public func doQRRefund(
        refundedTransactionId: String, refundAmount: Int, reference: String?
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        apmRefund(
            path: "/terminal/v1/apm/qr/refunds", refundedTransactionId: refundedTransactionId, refundAmount: refundAmount,
            reference: reference, pulling: { $0.apmPulling.map(TimeInterval.init) ?? APMTimings.pulling })
    }

    /// A QR or BLIK refund: made on `path`, then polled every `pulling` seconds of the terminal's
    /// timings up to its `apmRefundTimeout`.
    func apmRefund(
        path: String, refundedTransactionId: String, refundAmount: Int, reference: String?,
        pulling: @escaping @Sendable (DynamicProperties) -> TimeInterval
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        stream { emit in
            let loggedIn: LoggedIn
            do throws(TapOnMobileError) {
                loggedIn = try self.loggedIn()
            } catch {
                return emit(.failure(error))
            }
            let info: TerminalInfo
            switch await self.send(loggedIn.client, "GET", "/terminal/v1/terminal", bearer: loggedIn.token, as: TerminalInfo.self) {
            case .failure(let error): return emit(.failure(error))
            case .success(let answer): info = answer
            }
            let created = await self.send(
                loggedIn.client, "POST", path,
                body: APMBodies.Refund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference),
                bearer: loggedIn.token, idempotent: true, as: APMTransaction.self)
            guard case .success(let refund) = created else {
                if case .failure(let error) = created { emit(.failure(error)) }
                return
            }
            emit(.success(.processing(refund)))
            let timings = info.dynamicProperties
            let final = await self.poll(
                refund, loggedIn: loggedIn, every: pulling(timings),
                for: timings.apmRefundTimeout.map(TimeInterval.init) ?? APMTimings.refundTimeout, processing: nil)
            emit(final.map { .completed($0) })
        }
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
