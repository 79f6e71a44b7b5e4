#if !canImport(CryptoKit)
internal import COpenSSL
import Foundation

extension HMACSHA256 {
    /// A MAC in progress: SHA-256's state past the key's inner pad, a plain value.
    typealias MessageState = SHA256_CTX

    /// HMAC's key schedule (RFC 2104) done once per key: SHA-256 run over the key's inner pad and
    /// over its outer pad, and both states kept. A message starts from a copy of the inner state
    /// and ends on a copy of the outer one, so it costs its own blocks and one more: no context is
    /// made, reset or locked per message (EVP_MAC's re-initialisation through the provider layer
    /// was a tenth of a webhook verification).
    final class KeyEngine: @unchecked Sendable {
        private static let blockSize = 64

        // Written once here, read-only after; cleansed when the key goes.
        private var inner = SHA256_CTX()
        private var outer = SHA256_CTX()

        init(_ key: some DataProtocol) {
            var block = [UInt8](repeating: 0, count: Self.blockSize)
            var bytes = Array(key)
            // A key longer than a block is hashed first (RFC 2104, section 2).
            if bytes.count > Self.blockSize {
                var state = SHA256_CTX()
                var digest = [UInt8](repeating: 0, count: byteCount)
                Self.check(sandbox_sha256_init(&state), "SHA256_Init")
                Self.check(sandbox_sha256_update(&state, bytes, bytes.count), "SHA256_Update(key)")
                Self.check(sandbox_sha256_final(&digest, &state), "SHA256_Final(key)")
                OPENSSL_cleanse(&state, MemoryLayout<SHA256_CTX>.size)
                OPENSSL_cleanse(&bytes, bytes.count)
                bytes = digest
            }
            block.replaceSubrange(0..<bytes.count, with: bytes)
            inner = Self.state(after: block, xor: 0x36)
            outer = Self.state(after: block, xor: 0x5c)
            OPENSSL_cleanse(&block, block.count)
            OPENSSL_cleanse(&bytes, bytes.count)
        }

        /// SHA-256 started on the key's block XOR `pad`.
        private static func state(after block: [UInt8], xor pad: UInt8) -> SHA256_CTX {
            var padded = block.map { $0 ^ pad }
            defer { OPENSSL_cleanse(&padded, padded.count) }
            var state = SHA256_CTX()
            check(sandbox_sha256_init(&state), "SHA256_Init")
            check(sandbox_sha256_update(&state, padded, padded.count), "SHA256_Update(pad)")
            return state
        }

        deinit {
            OPENSSL_cleanse(&inner, MemoryLayout<SHA256_CTX>.size)
            OPENSSL_cleanse(&outer, MemoryLayout<SHA256_CTX>.size)
        }

        func start() -> MessageState { inner }

        static func update(_ state: inout MessageState, with bytes: UnsafeRawBufferPointer) {
            check(sandbox_sha256_update(&state, bytes.baseAddress, bytes.count), "SHA256_Update")
        }

        /// The MAC of the message in `state`, which is cleansed after.
        func finish(_ state: inout MessageState) -> AuthenticationCode {
            var code = AuthenticationCode()
            code.withUnsafeMutableBytes { output in
                let digest = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
                // The inner hash goes into the code's bytes, then the outer hash over it replaces it.
                Self.check(sandbox_sha256_final(digest, &state), "SHA256_Final(inner)")
                state = outer
                Self.check(sandbox_sha256_update(&state, digest, byteCount), "SHA256_Update(outer)")
                Self.check(sandbox_sha256_final(digest, &state), "SHA256_Final(outer)")
            }
            OPENSSL_cleanse(&state, MemoryLayout<SHA256_CTX>.size)
            return code
        }

        func abandon(_ state: inout MessageState) {
            OPENSSL_cleanse(&state, MemoryLayout<SHA256_CTX>.size)
        }

        /// SHA-256's functions fail only on a NULL state, which this type never passes.
        private static func check(_ status: Int32, _ call: StaticString) {
            precondition(status == 1, "\(call) failed")
        }
    }
}
#endif
