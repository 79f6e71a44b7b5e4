/// The one error type of `SimulatedReader`.
///
/// Each failure has a stable kind exposed as a `static let` (or a `static func` when it
/// carries a notice or a reason), so callers match it with `==`. Equality compares the kind,
/// the notice and the unsupported reason; ``message`` is for logs.
///
/// ```swift
/// do {
///     try await reader.prepare(token: token)
/// } catch let error as ReaderError where error == .busy {
///     // A read or another prepare is running: wait for it, then retry.
/// } catch let error as ReaderError where error == .notice(.merchantBlocked) {
///     showMerchantBlocked()
/// }
/// ```
public struct ReaderError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case unsupported
        case busy
        case notPrepared
        case appInBackground
        case tokenCancelled
        case accountLinkingCancelled
        case notice
        case locationDenied
        case locationTimeout
        case invalidReaderKey
        case invalidRequest
        case noCardRead
        case sealingFailed
        case unreadableCard
        case invalidCatalogue
        case connectionFailed
    }

    private let code: Code

    /// The notice behind a ``notice(_:)`` error.
    public let notice: ReaderNotice?

    /// The reason behind an ``unsupported(_:)`` error.
    public let unsupportedReason: UnsupportedReason?

    /// What went wrong, in words for a log line.
    public let message: String

    private init(
        _ code: Code, _ message: String, notice: ReaderNotice? = nil, unsupportedReason: UnsupportedReason? = nil
    ) {
        self.code = code
        self.message = message
        self.notice = notice
        self.unsupportedReason = unsupportedReason
    }

    /// The device does not support Tap to Pay on iPhone (TapOnMobile `cardReaderSession(.unsupported)`,
    /// MONEI `notSupported`).
    public static func unsupported(_ reason: UnsupportedReason) -> ReaderError {
        ReaderError(.unsupported, "Tap to Pay on iPhone is not supported: \(reason)", unsupportedReason: reason)
    }

    /// A prepare, clear, read or test read is already running (Geopagos `.busy`, MONEI `busy`).
    public static let busy = ReaderError(.busy, "the reader is busy with another operation")

    /// A read needs a prepared reader: call ``Reader/prepare(token:)`` first, and again after
    /// the app returns from the background.
    public static let notPrepared = ReaderError(.notPrepared, "the reader is not prepared")

    /// The app is in the background; the reader does nothing until it returns.
    public static let appInBackground = ReaderError(.appInBackground, "the app is in the background")

    /// The token provider returned `.cancel`; the connection flow stopped.
    public static let tokenCancelled = ReaderError(.tokenCancelled, "no reader token was provided")

    /// The account-linking handler returned `.cancel`; the merchant did not accept Apple's terms.
    public static let accountLinkingCancelled = ReaderError(
        .accountLinkingCancelled, "the merchant did not link the account to Tap to Pay on iPhone")

    /// A reader notice stopped the operation (see ``ReaderNotice/stops(at:)``).
    public static func notice(_ notice: ReaderNotice) -> ReaderError {
        ReaderError(.notice, "reader notice \(notice.rawValue) stopped the operation", notice: notice)
    }

    /// Location permission is denied, or the app declares no location usage description.
    public static let locationDenied = ReaderError(.locationDenied, "location access is denied")

    /// No location fix arrived within 15 s (MONEI `paymentFailed(code: .locationTimeout)`).
    public static let locationTimeout = ReaderError(.locationTimeout, "no location fix within 15 seconds")

    /// The reader key is not 32 bytes.
    public static let invalidReaderKey = ReaderError(.invalidReaderKey, "the reader key must be 32 bytes")

    /// The amount is not above zero or the currency is not three upper-case letters.
    public static let invalidRequest = ReaderError(.invalidRequest, "amount or currency is invalid")

    /// A PIN was asked for, but no card has been read since the reader was prepared.
    public static let noCardRead = ReaderError(.noCardRead, "no card has been read")

    /// The payload could not be sealed.
    public static let sealingFailed = ReaderError(.sealingFailed, "the payload could not be sealed")

    /// The tapped card holds data no contactless kernel can read (a PAN that is not 12 to 19
    /// digits, an AID that is not 5 to 16 bytes of hex), so nothing is sealed. Everything else a
    /// card says is sealed as it is, and the host judges it.
    public static let unreadableCard = ReaderError(.unreadableCard, "the card could not be read")

    /// The host that judges tokens could not be reached, or answered nothing usable; ``message``
    /// says what happened.
    public static let connectionFailed = ReaderError(.connectionFailed, "the host could not be reached")

    /// A ``connectionFailed`` error with what happened.
    public static func connectionFailed(_ detail: String) -> ReaderError {
        ReaderError(.connectionFailed, "the host could not be reached: \(detail)")
    }

    /// `cards.json` was refused; ``message`` reads `<file>: <field>: <problem>`.
    public static let invalidCatalogue = ReaderError(.invalidCatalogue, "the card catalogue is invalid")

    /// An ``invalidCatalogue`` error in the sandbox's `<file>: <path>: <reason>` form.
    static func invalidCatalogue(file: String, path: String, reason: String) -> ReaderError {
        ReaderError(.invalidCatalogue, "\(file): \(path): \(reason)")
    }

    /// An ``unreadableCard`` error naming what the kernel could not read.
    static func unreadableCard(_ reason: String) -> ReaderError {
        ReaderError(.unreadableCard, "the card could not be read: \(reason)")
    }

    /// A ``sealingFailed`` error with the sealer's reason.
    static func sealingFailed(_ detail: String) -> ReaderError {
        ReaderError(.sealingFailed, "the payload could not be sealed: \(detail)")
    }

    public static func == (lhs: ReaderError, rhs: ReaderError) -> Bool {
        lhs.code == rhs.code && lhs.notice == rhs.notice && lhs.unsupportedReason == rhs.unsupportedReason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(notice)
        hasher.combine(unsupportedReason)
    }

    public var description: String {
        "ReaderError.\(code.rawValue): \(message)"
    }
}
