#if canImport(CryptoKit)
internal import CryptoKit
import Foundation

extension HMACSHA256 {
    /// The MAC, by CryptoKit's `HMAC<SHA256>`.
    static func engineAuthenticate(key: some DataProtocol, message: some DataProtocol) -> [UInt8] {
        Array(HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Array(key))))
    }
}
#endif
