import Foundation

/// HMAC with SHA-256: OpenSSL's `HMAC` (an EVP MAC underneath) on Linux, CryptoKit's `HMAC` on Apple
/// platforms.
///
/// This is the primitive behind both webhook signature schemes: MONEI-style
/// `v1=<hex HMAC(key, t + "." + body)>` and Standard Webhooks' base64 `v1,<signature>`.
/// Compare a received signature with ``ConstantTime/equals(_:_:)``, never with `==`.
/// To compute many MACs under one key (a webhook verifier), set the key up once with ``Key``.
///
/// ```swift
/// let mac = HMACSHA256.authenticate(key: Array("secret".utf8), message: Array("1700000000.{}".utf8))
/// let header = "t=1700000000,v1=" + Hex.encode(mac)
/// ```
public enum HMACSHA256 {
    /// The length of an authentication code, in bytes.
    public static let byteCount = 32

    /// The HMAC-SHA256 of `message` under `key`.
    ///
    /// - Parameters:
    ///   - key: The secret key; any length (longer than 64 bytes is hashed first, as RFC 2104 says).
    ///   - message: The authenticated message; any length, including empty.
    /// - Returns: The 32-byte authentication code.
    public static func authenticate(key: some DataProtocol, message: some DataProtocol) -> [UInt8] {
        engineAuthenticate(key: key, message: message)
    }

    /// The HMAC-SHA256 of the UTF-8 bytes of `message` under the UTF-8 bytes of `key`.
    ///
    /// ```swift
    /// let mac = HMACSHA256.authenticate(key: "Jefe", message: "what do ya want for nothing?")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The secret key, as text.
    ///   - message: The message, as text.
    /// - Returns: The 32-byte authentication code.
    public static func authenticate(key: String, message: String) -> [UInt8] {
        authenticate(key: Array(key.utf8), message: Array(message.utf8))
    }

    /// Whether `mac` is the HMAC-SHA256 of `message` under `key`, compared in constant time.
    ///
    /// ```swift
    /// guard HMACSHA256.isValid(received, key: secret, message: signedPayload) else { throw … }
    /// ```
    ///
    /// - Parameters:
    ///   - mac: The authentication code received.
    ///   - key: The secret key.
    ///   - message: The message the code claims to authenticate.
    /// - Returns: `true` when the code matches exactly.
    public static func isValid(
        _ mac: some DataProtocol,
        key: some DataProtocol,
        message: some DataProtocol
    ) -> Bool {
        ConstantTime.equals(authenticate(key: key, message: message), mac)
    }
}
