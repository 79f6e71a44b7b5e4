import Foundation
import SandboxWire
#if canImport(UIKit)
import UIKit
#endif

/// BLIK payments and refunds (seed "BLIK Payment", "BLIK Refunds"; docs/blik.md).
///
/// The same APM flow as QR payments (``apm(_:refusal:)``): the host checks the code with the customer's bank at once
/// and answers an `ONGOING` transaction; the device polls its host every `blikPulling` seconds up
/// to `blikTimeout` while the customer approves or declines in the bank app. The waits run on
/// ``SandboxConfiguration/apmClock`` (else ``SandboxConfiguration/clock``).
extension TapOnMobile {
    /// What a terminal's dynamic properties leave unsaid for BLIK (docs/blik.md).
    enum BlikTimings {
        static let timeout: TimeInterval = 120
        static let pulling: TimeInterval = 3
    }

    /// Takes a BLIK payment (seed `doBlikPayment`).
    ///
    /// ```swift
    /// for await result in TapOnMobile.shared.doBlikPayment(requestedAmount: 4500, tipAmount: nil, reference: "INV-2",
    ///                                                      payCode: "777123") {
    ///     switch result {
    ///     case .success(.processing(let payment)): print("waiting for the customer", payment.transactionId)
    ///     case .success(.completed(let payment)): print(payment.transactionStatus, payment.declineReason ?? "")
    ///     case .success: break
    ///     case .failure(let error): print("BLIK Payment: Error: \(error)")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - requestedAmount: The total in minor units, tip included (45.00 zł is 4500).
    ///   - tipAmount: The part of `requestedAmount` that is a tip.
    ///   - reference: The merchant's reference, or `nil`.
    ///   - container: The view controller for the SDK's own screens. With one, the customer types
    ///     the code on the SDK's screen, so `payCode` and `verificationCode` must be nil; the
    ///     sandbox draws no screen and takes the code from ``SandboxConfiguration/blikPayCode``.
    ///   - paymentSolutionReceiptHandling: Accepted for the seed's signature; changes nothing without screens.
    ///   - payCode: The customer's 6- or 9-digit code; required without a container.
    ///   - verificationCode: Required with a 9-digit `payCode`, absent with a 6-digit one.
    /// - Returns: `.processing(payment)` while the customer decides (status `ONGOING`), then
    ///   `.completed(payment)` whatever the final status (`CLEARED`, `DECLINED` with its
    ///   `declineReason`, `TIMEOUT`, `USER_CANCELLED`); or one failure: a ``ValidationError``
    ///   before any call when the code and the container disagree, the code's refusal
    ///   (``TransactionError`` `invalidPayCode`: unknown, expired, used, wrong length or
    ///   verification), `notAllowed` for `blik_not_enabled`, `busy`, `invalidAmount` ….
    @_disfavoredOverload
    public func doBlikPayment(
        requestedAmount: Int, tipAmount: Int?, reference: String?, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true, payCode: String? = nil, verificationCode: String? = nil
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        let typed = (payCode: configuration.blikPayCode, verificationCode: configuration.blikVerificationCode)
        // The code's refusal is told once the device is known to be logged in.
        let (code, refusal): ((payCode: String, verificationCode: String?), TapOnMobileError?)
        switch Self.blikCode(payCode: payCode, verificationCode: verificationCode, hasContainer: container != nil, typed: typed) {
        case .success(let given): (code, refusal) = ((given.0, given.1), nil)
        case .failure(let error): (code, refusal) = (("", nil), error)
        }
        return apm(
            APMOperation(
                path: "/terminal/v1/apm/blik/payments",
                body: { _, _ in
                    .success(
                        APMBodies.BlikPayment(
                            requestedAmount: requestedAmount, tipAmount: tipAmount, reference: reference, payCode: code.payCode,
                            verificationCode: code.verificationCode))
                },
                pulling: { $0.blikPulling.map(TimeInterval.init) ?? BlikTimings.pulling },
                timeout: { $0.blikTimeout.map(TimeInterval.init) ?? BlikTimings.timeout }),
            refusal: refusal)
    }

    /// Refunds all or part of a cleared BLIK payment to the customer's account (seed
    /// `doBlikRefund`; the seed's declared spelling ``doBlikefund(refundedTransactionId:refundAmount:reference:)``
    /// is the same call).
    ///
    /// ```swift
    /// for await result in TapOnMobile.shared.doBlikRefund(refundedTransactionId: id, refundAmount: 1000, reference: nil) {
    ///     if case .success(.completed(let refund)) = result { print(refund.transactionStatus) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - refundedTransactionId: The cleared BLIK payment.
    ///   - refundAmount: Minor units, at most what is left of the payment.
    ///   - reference: The merchant's reference, or `nil`.
    /// - Returns: `.processing(refund)` (status `ONGOING`), then `.completed(refund)` once the bank
    ///   answered (`CLEARED`, `DECLINED`) or `apmRefundTimeout` passed (`TIMEOUT`); or one failure.
    @_disfavoredOverload
    public func doBlikRefund(
        refundedTransactionId: String, refundAmount: Int, reference: String?
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        apmRefund(
            path: "/terminal/v1/apm/blik/refunds", refundedTransactionId: refundedTransactionId, refundAmount: refundAmount,
            reference: reference, pulling: { $0.blikPulling.map(TimeInterval.init) ?? BlikTimings.pulling })
    }

    /// The seed's rule for the code and the container, checked before any call: without a
    /// container `payCode` is required; with one, both codes are nil and the customer types the
    /// code on the SDK's screen (here ``SandboxConfiguration/blikPayCode``).
    static func blikCode(
        payCode: String?, verificationCode: String?, hasContainer: Bool, typed: (payCode: String?, verificationCode: String?)
    ) -> Result<(String, String?), TapOnMobileError> {
        func refused(_ message: String, _ field: String) -> Result<(String, String?), TapOnMobileError> {
            .failure(.validation(ValidationError(.invalidRequest, message: message, field: field)))
        }
        if hasContainer {
            if payCode != nil { return refused("With a container, payCode must be nil: the customer types it on the SDK's screen.", "payCode") }
            if verificationCode != nil {
                return refused("With a container, verificationCode must be nil: the customer types it on the SDK's screen.", "verificationCode")
            }
            guard let code = typed.payCode else {
                return refused("No BLIK code was typed on the SDK's screen (SandboxConfiguration.blikPayCode is nil).", "payCode")
            }
            return .success((code, typed.verificationCode))
        }
        guard let payCode else { return refused("payCode is required without a container.", "payCode") }
        return .success((payCode, verificationCode))
    }
}
