import Foundation

/// The partner app's identity for Tap On: its `appKey` (PagBank gives one per partner; the
/// sandbox's are in `sandbox-data/merchants.json`, region `PAGBANK`, `partners`).
public struct TapOnPartnerConfiguration {
    public var appKey: String

    public init(appKey: String) {
        self.appKey = appKey
    }
}

/// What the partner turns on or off in Tap On. The seed names the protocol without members; the
/// sandbox has no feature to switch, so it asks nothing of it.
public protocol TapOnPaymentDataSource: AnyObject {}

/// How Tap On shows its screens: over a view controller, or pushed on a navigation stack.
public enum PresentStyle {
    case present(UIViewController)
    case push(UINavigationController)
}

/// The partner's colours for Tap On's screens (accepted; the sandbox draws no screen).
public protocol UIColorPartner {
    var action: UIColor { get }
    var actionLight: UIColor { get }
    var actionHigh: UIColor { get }
    var actionDark: UIColor { get }
    var brand: UIColor { get }
    var onBrand: UIColor { get }
    var neutral: UIColor { get }
    var success: UIColor { get }
    var warning: UIColor { get }
    var error: UIColor { get }
    var product: UIColor { get }
}

/// A sale: the amount in reais (`10.00` is R$ 10,00), at most two decimals, from R$ 1,00 to
/// R$ 10.000,00.
public struct TapOnPaymentModel {
    public init(amount: Double) {
        self.amount = amount
    }

    var amount: Double
}

/// An approved sale, as `paymentStatusEvent(.approved(_:))` reports it.
public struct TapOnPaymentResult: Codable, Sendable, Equatable {
    /// The sale's code, which a cancel names.
    public var transactionCode: String?
    public var responseMessage: String
    /// The amount asked for, in centavos as a string (`"1000"` is R$ 10,00).
    public var originalAmount: String?
    /// The amount charged, in centavos as a string.
    public var amount: String
    /// 1: the sandbox takes no instalments.
    public var installments: Int
    /// `credit` or `debit`, from the card's application.
    public var paymentType: String
    /// The network (`VISA`, `MASTERCARD` …).
    public var cardBrand: String?
    /// The card as the reader may show it: its masked number (Apple's reader gives an app no name).
    public var holder: String
    /// When the issuer authorised it, ISO 8601.
    public var authDate: String
    public var authCode: String?
    public var userRef: String?
}

/// A cancel (estorno) of a sale: its code, its whole amount in centavos as a string (`"1000"`),
/// and the partner's own reference.
public struct TapOnCancelPaymentModel {
    public var transactionCode: String
    public var amount: String
    public var userRef: String?

    public init(transactionCode: String, amount: String, userRef: String? = nil) {
        self.transactionCode = transactionCode
        self.amount = amount
        self.userRef = userRef
    }
}

/// A done cancel: the amount given back (centavos as a string) and its reference.
public struct TapOnCancelResult: Sendable, Equatable {
    public var amount: String
    public var refCode: String
}

/// How a sale ended.
public enum TapOnPartnerPaymentEvent: Sendable, Equatable {
    case approved(TapOnPaymentResult)
    case failure(TapOnPartnerError)
}

/// How a cancel ended.
public enum TapOnPartnerCancelEvent: Sendable, Equatable {
    case approved(TapOnCancelResult)
    case failure(TapOnPartnerError)
}

/// Why a sale, a cancel or an activation did not go through: a stable `code` (the host's, such as
/// `amount_below_minimum`, or Tap On's own, such as `not_activated`) and a message for people.
public struct TapOnPartnerError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// Tap On's own refusal before `activate` (not the host's).
    public static let notActivated = TapOnPartnerError(code: "not_activated", message: "Tap On is not activated on this device: call activate first.")
    static let busy = TapOnPartnerError(code: "busy", message: "Another Tap On operation is running.")
}

/// Where Tap On reports what it did, on the main actor.
@MainActor
public protocol TapOnPartnerDelegate: AnyObject {
    func activateStatusEvent(successfully: Bool)
    func paymentStatusEvent(_ event: TapOnPartnerPaymentEvent)
    func cancelStatusEvent(_ event: TapOnPartnerCancelEvent)
}
