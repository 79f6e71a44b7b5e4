/// The one error type of `CardPayload`: why a sealed payload could not be made or opened,
/// why the card it carries is refused, or why `reader-keys.json` was refused.
///
/// Each failure has a stable kind exposed as a `static let`, so callers match it with `==`
/// or in a `catch`. Equality compares the kind only; ``message`` carries the detail for a
/// log line (which JSON field was wrong, which region had a bad key).
///
/// ```swift
/// do {
///     let payload = try PayloadSealer.open(sealed, as: CardPayload.self,
///                                          key: key, region: "EU", terminalId: "EU-T0101")
/// } catch let error as PayloadError where error == .authenticationFailed {
///     // Tampered bytes, another region's key, or a payload made for another terminal.
/// }
/// ```
public struct PayloadError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case notBase64
        case tooShort
        case authenticationFailed
        case malformed
        case invalidKey
        case sealingFailed
        case invalidKeyFile
        case invalidPAN
        case invalidCountry
        case brandMismatch
        case unknownBrand
        case unknownCVM
        case invalidCardData
    }

    private let code: Code

    /// What went wrong, in words for a log line.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The sealed text is not base64.
    public static let notBase64 = PayloadError(.notBase64, "sealed payload is not base64")

    /// The decoded bytes are shorter than a nonce and a tag (28 bytes), so nothing was sealed.
    public static let tooShort = PayloadError(.tooShort, "sealed payload is shorter than nonce and tag")

    /// The tag does not match: the bytes were changed, the key is another region's, or the
    /// payload was sealed for another terminal or region (the associated data differs).
    public static let authenticationFailed = PayloadError(.authenticationFailed, "sealed payload failed authentication")

    /// The payload opened but its plaintext is not the expected JSON (wrong shape, unknown
    /// version, bad `readId`).
    public static let malformed = PayloadError(.malformed, "sealed payload is not a valid payload")

    /// The key is not 32 bytes.
    public static let invalidKey = PayloadError(.invalidKey, "reader key must be 32 bytes")

    /// The payload could not be encoded or encrypted.
    public static let sealingFailed = PayloadError(.sealingFailed, "payload could not be sealed")

    /// `reader-keys.json` was refused; ``message`` reads `<file>: <field>: <problem>`.
    public static let invalidKeyFile = PayloadError(.invalidKeyFile, "reader key file is invalid")

    // The card a payload carries: it opened and is well-formed JSON, but what the card says is
    // refused (CardData's rules). Each is a refusal of its own on the host.

    /// The PAN is not 12 to 19 digits, or fails the Luhn check.
    public static let invalidPAN = PayloadError(.invalidPAN, "The card's PAN is not a valid card number.")

    /// The issuing country is not an ISO 3166-1 alpha-2 country code (`ZZ`, `EU`, `be`).
    public static let invalidCountry = PayloadError(.invalidCountry, "The card's country is not an ISO 3166-1 alpha-2 country code.")

    /// The brand does not fit the PAN's issuer identification number range or length, or the
    /// AID is not the brand's.
    public static let brandMismatch = PayloadError(.brandMismatch, "The card's brand does not match its PAN or AID.")

    /// The brand is none of ``CardBrand``'s.
    public static let unknownBrand = PayloadError(.unknownBrand, "The card's brand is not one the sandbox knows.")

    /// The CVM is none of ``CardholderVerification``'s.
    public static let unknownCVM = PayloadError(.unknownCVM, "The card's cvm is neither none nor onlinePin.")

    /// Another field of the card (expiry, AID, application label, PAN sequence) is out of its rules.
    public static let invalidCardData = PayloadError(.invalidCardData, "The card's data is out of its rules.")

    /// A refusal of the card with a message that names the field and the rule.
    static func card(_ kind: PayloadError, _ message: String) -> PayloadError {
        PayloadError(kind.code, message)
    }

    /// Whether this error refuses the card a payload carries (``invalidPAN`` … ``invalidCardData``),
    /// rather than the payload itself.
    public var refusesCard: Bool {
        switch code {
        case .invalidPAN, .invalidCountry, .brandMismatch, .unknownBrand, .unknownCVM, .invalidCardData: true
        default: false
        }
    }

    /// A ``malformed`` error that says which part of the plaintext was wrong.
    static func malformed(_ detail: String) -> PayloadError {
        PayloadError(.malformed, "sealed payload is not a valid payload: \(detail)")
    }

    /// A ``sealingFailed`` error with the encoder's or the cipher's reason.
    static func sealingFailed(_ detail: String) -> PayloadError {
        PayloadError(.sealingFailed, "payload could not be sealed: \(detail)")
    }

    /// An ``invalidKeyFile`` error in the sandbox's `<file>: <path>: <reason>` form.
    static func invalidKeyFile(file: String, path: String, reason: String) -> PayloadError {
        PayloadError(.invalidKeyFile, "\(file): \(path): \(reason)")
    }

    public static func == (lhs: PayloadError, rhs: PayloadError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    public var description: String {
        "PayloadError.\(code.rawValue): \(message)"
    }
}
