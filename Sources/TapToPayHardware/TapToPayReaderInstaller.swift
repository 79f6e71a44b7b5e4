@_exported import DeviceUI
#if canImport(UIKit)
import UIKit
#endif
import Foundation
@_spi(Readers) import Payments
import SimulatedReader

/// Why the reader asks the app for a token, and what the app answers (Geopagos seed 001).
public typealias TokenRequestReason = SimulatedReader.TokenRequestReason
public typealias TokenRejection = SimulatedReader.TokenRejection
public typealias TokenRequest = SimulatedReader.TokenRequest
/// Whether the merchant is asked to see Apple's terms, and the app's decision.
public typealias AccountLinkingReason = SimulatedReader.AccountLinkingReason
public typealias AccountLinkingDecision = SimulatedReader.AccountLinkingDecision
/// Apple's informational notices.
public typealias TapToPayReaderNotice = SimulatedReader.ReaderNotice
/// The result of ``TapToPayReaderInstaller/presentTapToPayDiscovery(on:completion:)``.
public typealias TapToPayDiscoveryResult = SimulatedReader.EducationResult
public typealias TapToPayDiscoveryError = SimulatedReader.EducationError

/// Asks the app for a token; called again after each rejection until a valid token or `.cancel`.
public typealias TokenProvider = @Sendable (TokenRequestReason) async -> TokenRequest
/// Asks the app before Apple's terms are shown.
public typealias AccountLinkingHandler = @Sendable (AccountLinkingReason) async -> AccountLinkingDecision

/// The result of ``TapToPayReaderInstaller/prepareConnection(completion:)`` and ``TapToPayReaderInstaller/clearConnection(completion:)``.
public enum TapToPayConnectionResult: Sendable, Equatable {
    case success
    case fail(TapToPayConnectionError, message: String?)
}

/// Why a prepare or a clear failed.
public enum TapToPayConnectionError: Sendable, Equatable {
    /// A preparation, a clearing or a transaction is running: wait for it, then retry.
    case busy
    /// The device does not support Tap to Pay on iPhone.
    case notSupported
    /// `PaymentsSDK.configure` has not been called: the reader knows no host.
    case notConfigured
    /// The token provider returned `.cancel`, or the host could not be reached.
    case connection
    /// The merchant did not accept Apple's terms (the handler returned `.cancel`).
    case accountLinkingCancelled
    /// A reader notice stopped the preparation (`merchantBlocked`, `deviceBanned`, `osUpdateRequired`, `entitlementMissing`).
    case readerNotice(TapToPayReaderNotice)
    /// The app went to the background meanwhile.
    case appInBackground
}

/// Apple's Tap to Pay on iPhone as a reader of the Payments SDK (Geopagos seed 001).
///
/// ```swift
/// let tapToPayInstaller = TapToPayReaderInstaller(
///     tokenProvider: { reason in .provide(try await backend.readerToken(), requiresRelink: false) },
///     onAccountLinkingRequired: { _ in .confirm },
///     onReaderNotice: { notice in print(notice) })
/// ```
///
/// Keep and reuse the instance registered in `PaymentsConfiguration`. The simulated phone and
/// what Apple and the customer do come from `GeopagosSandbox.current` when it is created.
public final class TapToPayReaderInstaller: ReaderInstaller {
    public let engine: ReaderEngine
    /// Where completions and notices reach the app: ``GeopagosSandbox/callbackQueue`` when created.
    private let callbackQueue: DispatchQueue?

    public init(
        tokenProvider: @escaping TokenProvider,
        onAccountLinkingRequired: @escaping AccountLinkingHandler,
        onReaderNotice: @escaping @Sendable (TapToPayReaderNotice) -> Void
    ) {
        let queue = GeopagosSandbox.current.callbackQueue
        callbackQueue = queue
        engine = ReaderEngine(
            tokenProvider: tokenProvider, accountLinking: onAccountLinkingRequired,
            onReaderNotice: { notice in AppCallbacks.deliver(on: queue) { onReaderNotice(notice) } })
    }

    /// Whether this iPhone supports Tap to Pay (iPhone XS or newer… as the sandbox's rule: iPhone 11
    /// or newer on iOS 16.7 or later).
    public func isTapToPaySupported() -> Bool { engine.isSupported }

    /// The reader as a transaction's `provideDevice` expects it.
    public var device: Payments.Device { engine.device }

    /// Prepares the connection (may take seconds: do it at app start). The token provider is asked
    /// for a token, the Geopagos host judges it, Apple's terms follow if needed.
    public func prepareConnection(completion: @escaping @Sendable (TapToPayConnectionResult) -> Void) {
        let queue = callbackQueue
        Task {
            let result = Self.result(await engine.prepare())
            AppCallbacks.deliver(on: queue) { completion(result) }
        }
    }

    /// Ends the prepared connection; the next prepare asks the token provider again (`.setup`),
    /// which is how an app switches terminal configuration. Nothing prepared: success at once.
    public func clearConnection(completion: @escaping @Sendable (TapToPayConnectionResult) -> Void) {
        let queue = callbackQueue
        Task {
            let result = Self.result(await engine.clear())
            AppCallbacks.deliver(on: queue) { completion(result) }
        }
    }

    /// `prepareConnection` for async code.
    public func prepareConnection() async -> TapToPayConnectionResult { Self.result(await engine.prepare()) }

    /// `clearConnection` for async code.
    public func clearConnection() async -> TapToPayConnectionResult { Self.result(await engine.clear()) }

    /// Shows Apple's "How to Tap" merchant education on `viewController`, which must be the topmost
    /// presented one; it needs the terms accepted first.
    @MainActor
    public func presentTapToPayDiscovery(on viewController: UIViewController, completion: @escaping @Sendable (TapToPayDiscoveryResult) -> Void) {
        #if canImport(UIKit)
        guard viewController.presentedViewController == nil else {
            return completion(.fail(.unknown, message: "The view controller is not the topmost presented one."))
        }
        #endif
        let engine = engine
        let queue = callbackQueue
        Task {
            let result = await engine.presentEducation()
            AppCallbacks.deliver(on: queue) { completion(result) }
        }
    }

    static func result(_ outcome: Result<Void, ReaderEngine.Failure>) -> TapToPayConnectionResult {
        switch outcome {
        case .success: return .success
        case .failure(.busy): return .fail(.busy, message: "A preparation, a clearing or a transaction is running.")
        case .failure(.notSupported): return .fail(.notSupported, message: "Tap to Pay on iPhone is not supported on this device.")
        case .failure(.notConfigured): return .fail(.notConfigured, message: "Call PaymentsSDK.configure(paymentsConfiguration:) first.")
        case .failure(.connection(let why)): return .fail(.connection, message: why)
        case .failure(.accountLinkingCancelled): return .fail(.accountLinkingCancelled, message: "The merchant did not accept Apple's terms.")
        case .failure(.notice(let notice)): return .fail(.readerNotice(notice), message: "Reader notice \(notice.rawValue).")
        case .failure(.appInBackground): return .fail(.appInBackground, message: "The app went to the background.")
        }
    }
}
