import Foundation

/// SHA-256: OpenSSL's EVP digest API on Linux, CryptoKit on Apple platforms.
///
/// Used for content fingerprints, ETags and the key derivations of the sandbox. For a keyed
/// digest (webhook signatures) use ``HMACSHA256`` instead.
///
/// ```swift
/// let digest = SHA256.hash(Array("abc".utf8))   // 32 bytes
/// let hex = SHA256.hexDigest("abc")            // "ba7816bf…"
/// ```
public enum SHA256 {
    /// The length of a digest, in bytes.
    public static let byteCount = 32

    /// The SHA-256 digest of `bytes`.
    ///
    /// - Parameter bytes: The message; any length, including empty.
    /// - Returns: The 32-byte digest.
    public static func hash(_ bytes: some DataProtocol) -> [UInt8] {
        engineHash(bytes)
    }

    /// The SHA-256 digest of the UTF-8 bytes of `string`.
    ///
    /// - Parameter string: The message.
    /// - Returns: The 32-byte digest.
    public static func hash(_ string: String) -> [UInt8] {
        hash(Array(string.utf8))
    }

    /// The SHA-256 digest of `bytes` as 64 lowercase hexadecimal characters.
    ///
    /// ```swift
    /// SHA256.hexDigest([UInt8]())  // "e3b0c442…b855"
    /// ```
    ///
    /// - Parameter bytes: The message.
    /// - Returns: The digest in lowercase hex.
    public static func hexDigest(_ bytes: some DataProtocol) -> String {
        Hex.encode(hash(bytes))
    }

    /// The SHA-256 digest of the UTF-8 bytes of `string` as lowercase hex.
    ///
    /// - Parameter string: The message.
    /// - Returns: The digest in lowercase hex.
    public static func hexDigest(_ string: String) -> String {
        Hex.encode(hash(string))
    }
}
