#if canImport(CryptoKit)
import Darwin
#else
internal import COpenSSL
#endif
import Foundation

/// Comparisons whose running time does not depend on where two secrets differ.
///
/// Comparing a received MAC or token with `==` returns at the first differing byte, which
/// lets an attacker find the right value one byte at a time by timing. OpenSSL's `CRYPTO_memcmp`
/// (Linux) and the C library's `timingsafe_bcmp` (Apple platforms) always read every byte.
///
/// ```swift
/// let expected = HMACSHA256.authenticate(key: secret, message: payload)
/// guard ConstantTime.equals(expected, try Hex.decode(signature)) else { return .unauthorized }
/// ```
public enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes.
    ///
    /// Inputs of different lengths are unequal and return at once: the length of a MAC or a
    /// token is public, so only the contents are compared in constant time.
    ///
    /// - Parameters:
    ///   - lhs: One byte string.
    ///   - rhs: The other byte string.
    /// - Returns: `true` when both have the same length and the same bytes.
    public static func equals(_ lhs: some DataProtocol, _ rhs: some DataProtocol) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return withContiguousBytes(lhs) { left in
            withContiguousBytes(rhs) { right in equals(left, right) }
        }
    }

    /// Whether two buffers hold the same bytes; the same check without going through
    /// `DataProtocol`, for callers that compare on every request.
    ///
    /// ```swift
    /// expected.withUnsafeBytes { ConstantTime.equals($0, UnsafeRawBufferPointer(received)) }
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: One byte string.
    ///   - rhs: The other byte string.
    /// - Returns: `true` when both have the same length and the same bytes.
    public static func equals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        #if canImport(CryptoKit)
        return timingsafe_bcmp(left, right, lhs.count) == 0
        #else
        return CRYPTO_memcmp(left, right, lhs.count) == 0
        #endif
    }

    /// Calls `body` with the bytes of `data` as one contiguous buffer.
    private static func withContiguousBytes<Result>(
        _ data: some DataProtocol, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        if let result = data.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(data).withUnsafeBytes(body)
    }
}
