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
/// (refunds: `apmRefundTimeout`), in the one APM flow (``apm(_:refusal:)``). The waits run on
/// ``SandboxConfiguration/apmClock`` (else ``SandboxConfiguration/clock``), so a test moves time
/// instead of waiting.
extension TapOnMobile {
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
        return apm(
            APMOperation(
                path: "/terminal/v1/apm/qr/payments",
                body: { info, announce in
                    let brands = info.apmEnabled ? info.apmConfig.filter(\.isActive).map(\.brandName) : []
                    guard let brand = chosen ?? brands.first else {
                        return .failure(
                            .host(status: 403, code: .apmNotEnabled, message: "Terminal \(info.terminalId) takes no QR wallet payments.", field: nil))
                    }
                    announce(.displayBrands(brands))
                    return .success(APMBodies.Payment(requestedAmount: requestedAmount, tipAmount: tipAmount, reference: reference, brand: brand))
                },
                pulling: { $0.apmPulling.map(TimeInterval.init) ?? APMTimings.pulling },
                timeout: { $0.apmTimeout.map(TimeInterval.init) ?? APMTimings.timeout },
                created: { .displayQR($0) }))
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
}
