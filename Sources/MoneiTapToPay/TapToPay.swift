// The UIKit stand-ins (`UIViewController` off Apple platforms) come with the SDK, as UIKit does on iOS.
@_exported import DeviceUI
import Foundation

/// MONEI's Tap to Pay on iPhone SDK (seed 002), over the sandbox's MONEI host and simulated reader.
///
/// Four calls, on the main actor, with the seed's names, labels and types: code written from the
/// seed compiles with `import MoneiTapToPay` and runs against `sandbox up`.
///
/// ```swift
/// guard TapToPay.isSupported else { return }
/// try await TapToPay.prepare(token: token)                       // from POST /v1/pos/auth-token
/// let result = try await TapToPay.acceptPayment(
///     amount: 1050, orderId: "order-1", callbackUrl: URL(string: "https://example.com/monei/webhook"))
/// ```
///
/// The sandbox's own set-up (where the host is, the phone, the customer's card, the clock, the GPS)
/// is ``TapToPaySandbox``, which is not in the seed.
@MainActor
public enum TapToPay {
    /// The SDK's version, sent in `User-Agent`.
    public nonisolated static let version = "0.1.0"

    /// The one app this process plays; ``TapToPaySandbox/launch(_:)`` replaces it.
    static var app = TapToPayApp(TapToPaySandbox())

    /// `true` when the device supports Tap to Pay on iPhone: an iPhone XS or newer with iOS 18.5
    /// or later. When `false`, every call throws ``TapToPayError/notSupported``.
    public static var isSupported: Bool { app.reader.isTapToPaySupported }

    /// Stores the token (in memory only) and prepares the reader in the background, so that the
    /// first payment starts faster. It does not show Apple's terms.
    ///
    /// It asks for location permission if the user did not answer yet and waits for the answer,
    /// then, on the first call after launch, up to 15 s for a location fix; then it checks the token
    /// with MONEI. Call it on launch and after each token renewal.
    ///
    /// - Throws: ``TapToPayError/notSupported``, ``TapToPayError/locationDenied``,
    ///   ``TapToPayError/paymentFailed(code:)`` with `.locationTimeout` (no fix in 15 s) or
    ///   `.readerNotReady` (MONEI cannot be reached), ``TapToPayError/tokenExpired``,
    ///   ``TapToPayError/invalidToken``, ``TapToPayError/busy`` (a payment is running).
    public static func prepare(token: String) async throws {
        try await app.prepare(token: token)
    }

    /// Takes one card payment: Apple's terms if the account is not linked yet, the tap screen, then
    /// MONEI. Never retried.
    ///
    /// - Parameters:
    ///   - amount: In euro cents, more than 0 (1050 is 10.50 EUR).
    ///   - orderId: Your reference for the order; not empty, new for each order.
    ///   - callbackUrl: Where MONEI posts the signed payment callback. Always set it.
    /// - Returns: The result; ``PaymentResult/Status/declined`` is a result, not an error.
    /// - Throws: ``TapToPayError``: `invalidArgument`, `busy`, `notPrepared`, `termsDeclined`,
    ///   `cancelled`, `tokenExpired`, `invalidToken`, `outcomeUnknown(orderId:)` (the card can be
    ///   charged: check the order in MONEI), `paymentFailed(code:)`, `notSupported`, `locationDenied`.
    public static func acceptPayment(amount: Int, orderId: String, callbackUrl: URL?) async throws -> PaymentResult {
        try await app.acceptPayment(amount: amount, orderId: orderId, callbackUrl: callbackUrl)
    }

    /// Shows Apple's screens that teach how to tap a card.
    ///
    /// - Parameter viewController: The screen to present them from.
    /// - Throws: ``TapToPayError/notSupported`` (also when iOS must be updated to show them);
    ///   `paymentFailed(code: .unknown)` when they could not be shown.
    public static func presentEducation(from viewController: UIViewController) async throws {
        try await app.presentEducation()
    }
}
