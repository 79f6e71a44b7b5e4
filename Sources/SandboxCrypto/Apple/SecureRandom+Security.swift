#if canImport(CryptoKit)
import Security

extension SecureRandom {
    /// `count` bytes from `SecRandomCopyBytes`.
    static func engineBytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let status = bytes.withUnsafeMutableBytes { buffer in
            SecRandomCopyBytes(kSecRandomDefault, buffer.count, buffer.baseAddress!)
        }
        precondition(status == errSecSuccess, "SecRandomCopyBytes failed (OSStatus \(status))")
        return bytes
    }
}
#endif
