#if !canImport(CryptoKit)
internal import COpenSSL
import Foundation

extension HMACSHA256 {
    /// The MAC, by OpenSSL's one-shot `HMAC`.
    static func engineAuthenticate(key: some DataProtocol, message: some DataProtocol) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let succeeded = OpenSSL.withBytes(key) { keyBytes in
            OpenSSL.withBytes(message) { messageBytes in
                mac.withUnsafeMutableBytes { output in
                    // A key longer than Int32.max bytes cannot be passed to HMAC's `int` length.
                    guard let keyLength = Int32(exactly: keyBytes.count) else { return false }
                    return HMAC(
                        OpenSSL.sha256,
                        keyBytes.baseAddress, keyLength,
                        messageBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                        output.baseAddress!.assumingMemoryBound(to: UInt8.self), &length
                    ) != nil
                }
            }
        }
        // HMAC fails only when OpenSSL cannot allocate or fetch SHA-256 (or for a 2 GiB key).
        precondition(succeeded && length == UInt32(byteCount), "\(OpenSSL.lastError("HMAC(SHA-256)"))")
        return mac
    }
}
#endif
