/// The one error type of `SandboxCrypto`.
///
/// Each failure has a stable kind, exposed as a `static let`, so callers match it with `==`
/// or `catch`. A failure that comes from OpenSSL itself also keeps the library's packed
/// error code and message, for logs.
///
/// ```swift
/// do {
///     let plaintext = try AESGCM.open(box, key: key)
/// } catch let error as CryptoError where error == .authenticationFailure {
///     // Tampered payload, wrong key or wrong associated data.
/// }
/// ```
///
/// Equality compares the kind only: two library failures with different OpenSSL codes are
/// equal, because callers branch on the kind and log the detail.
public struct CryptoError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case invalidKeySize
        case invalidNonceSize
        case invalidSealedBox
        case authenticationFailure
        case invalidHex
        case invalidBase64
        case inputTooLarge
        case libraryFailure
    }

    private let code: Code

    /// The packed OpenSSL error code (`ERR_get_error`), or `nil` when the failure is not the library's.
    public let libraryCode: UInt?

    /// Why the operation failed, in words for a log line.
    public let message: String

    private init(_ code: Code, message: String, libraryCode: UInt? = nil) {
        self.code = code
        self.message = message
        self.libraryCode = libraryCode
    }

    /// A key has the wrong length (AES-256-GCM needs 32 bytes).
    public static let invalidKeySize = CryptoError(.invalidKeySize, message: "AES-256-GCM needs a 32-byte key")

    /// A nonce has the wrong length (AES-256-GCM here uses 12 bytes).
    public static let invalidNonceSize = CryptoError(.invalidNonceSize, message: "AES-256-GCM needs a 12-byte nonce")

    /// A sealed box is malformed: tag not 16 bytes, or a combined form shorter than nonce + tag.
    public static let invalidSealedBox = CryptoError(.invalidSealedBox, message: "sealed box is malformed")

    /// The authentication tag does not match: the ciphertext, tag, nonce or associated data
    /// was changed, or the key is wrong.
    public static let authenticationFailure = CryptoError(.authenticationFailure, message: "authentication failed")

    /// A hexadecimal string has an odd length or a character outside `0-9a-fA-F`.
    public static let invalidHex = CryptoError(.invalidHex, message: "invalid hexadecimal string")

    /// A base64 string is not valid in either the standard or the URL-safe alphabet.
    public static let invalidBase64 = CryptoError(.invalidBase64, message: "invalid base64 string")

    /// An input is longer than the C API can take in one call.
    public static let inputTooLarge = CryptoError(.inputTooLarge, message: "input too large")

    /// OpenSSL reported an unexpected failure; ``libraryCode`` and ``message`` say which.
    public static let libraryFailure = CryptoError(.libraryFailure, message: "OpenSSL failure")

    /// A library failure carrying OpenSSL's own code and message.
    static func library(code: UInt, message: String) -> CryptoError {
        CryptoError(.libraryFailure, message: message, libraryCode: code)
    }

    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    public var description: String {
        if let libraryCode {
            return "CryptoError.\(code.rawValue)(\(libraryCode)): \(message)"
        }
        return "CryptoError.\(code.rawValue): \(message)"
    }
}
