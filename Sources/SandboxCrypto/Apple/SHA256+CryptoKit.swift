#if canImport(CryptoKit)
internal import CryptoKit
import Foundation

extension SHA256 {
    /// The digest, by CryptoKit (its `SHA256`, which this module's name shadows).
    static func engineHash(_ bytes: some DataProtocol) -> [UInt8] {
        Array(CryptoKit.SHA256.hash(data: bytes))
    }
}
#endif
