#if !canImport(CryptoKit)
internal import COpenSSL
import Foundation

extension SHA256 {
    /// The digest, by `EVP_Digest`.
    static func engineHash(_ bytes: some DataProtocol) -> [UInt8] {
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
}
#endif
