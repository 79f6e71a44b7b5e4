#if !canImport(CryptoKit)
internal import COpenSSL
import Foundation

/// Small helpers shared by the OpenSSL wrappers; nothing here is public.
enum OpenSSL {
    /// SHA-256 and AES-256-GCM fetched from the provider once per process. `EVP_sha256()` and
    /// `EVP_aes_256_gcm()` are legacy handles that OpenSSL 3 fetches again on every use (a
    /// lookup in the provider tables under a lock, per digest or per payload opened).
    nonisolated(unsafe) static let sha256: OpaquePointer = {
        guard let digest = EVP_MD_fetch(nil, "SHA256", nil) else { preconditionFailure("\(lastError("EVP_MD_fetch(SHA256)"))") }
        return digest
    }()

    nonisolated(unsafe) static let aes256GCM: OpaquePointer = {
        guard let cipher = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) else {
            preconditionFailure("\(lastError("EVP_CIPHER_fetch(AES-256-GCM)"))")
        }
        return cipher
    }()

    /// Calls `body` with the bytes of `data` as one contiguous buffer whose base address is
    /// never `nil`, even when `data` is empty.
    ///
    /// OpenSSL treats a `NULL` pointer differently from an empty buffer in places (an HMAC
    /// with a `NULL` key reuses the previous key instead of the empty one), so an empty input
    /// is passed as a zero-length slice of a real buffer.
    static func withBytes<Bytes: DataProtocol, Result>(
        _ data: Bytes,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        if data.isEmpty {
            var zero: UInt8 = 0
            return try withUnsafeBytes(of: &zero) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<0])) }
        }
        if let result = try data.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return try Array(data).withUnsafeBytes(body)
    }

    /// The oldest error on this thread's OpenSSL error queue, as a ``CryptoError``, with the
    /// queue cleared so a later failure does not report a stale entry.
    static func lastError(_ context: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else {
            return .library(code: 0, message: "\(context) failed")
        }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .library(code: UInt(code), message: "\(context) failed: \(text)")
    }

    /// `value` as a C `int`, or ``CryptoError/inputTooLarge``.
    static func int32(_ value: Int) throws(CryptoError) -> Int32 {
        guard let result = Int32(exactly: value) else { throw .inputTooLarge }
        return result
    }
}
#endif
