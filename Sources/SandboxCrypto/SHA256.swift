#if canImport(COpenSSL)
internal import COpenSSL
import Foundation

/// SHA-256, computed by OpenSSL's EVP digest API.
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
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let status = OpenSSL.withBytes(bytes) { input in
            digest.withUnsafeMutableBytes { output in
                EVP_Digest(
                    input.baseAddress, input.count,
                    output.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                    OpenSSL.sha256, nil
                )
            }
        }
        // EVP_Digest fails only when OpenSSL cannot allocate or fetch SHA-256: nothing a
        // caller could recover from.
        precondition(status == 1 && length == UInt32(byteCount), "\(OpenSSL.lastError("EVP_Digest(SHA-256)"))")
        return digest
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
#endif
