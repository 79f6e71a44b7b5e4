#if !canImport(CryptoKit)
internal import COpenSSL
import Foundation

extension HMACSHA256 {
    /// An OpenSSL `EVP_MAC_CTX` in progress, checked out of a ``KeyEngine``'s pool.
    typealias MessageState = OpaquePointer

    /// An OpenSSL `EVP_MAC_CTX` keyed once (the template) and a pool of keyed contexts.
    ///
    /// For each MAC it takes a keyed context from the pool (duplicating the template when the pool
    /// is empty), feeds it the message and puts it back reset.
    final class KeyEngine: @unchecked Sendable {
        /// `EVP_MAC_fetch` looks the algorithm up in the provider tables; once per process is enough.
        nonisolated(unsafe) private static let algorithm: OpaquePointer = {
            guard let algorithm = EVP_MAC_fetch(nil, "HMAC", nil) else {
                preconditionFailure("\(OpenSSL.lastError("EVP_MAC_fetch(HMAC)"))")
            }
            return algorithm
        }()

        /// How many idle contexts are kept for reuse; more callers at once get contexts that are freed after use.
        private static let maximumIdle = 16

        /// Keyed and initialised, never updated: only duplicated.
        private let template: OpaquePointer
        private let lock = NSLock()
        /// Keyed contexts ready for a new message, `idleCount.pointee` of them; guarded by `lock`.
        /// Raw storage behind `let`s rather than a `var` array: a class's `var` is checked for
        /// exclusive access at run time on every use, which costs more than the lock.
        private let idle: UnsafeMutablePointer<OpaquePointer>
        private let idleCount: UnsafeMutablePointer<Int>

        init(_ key: some DataProtocol) {
            guard let context = EVP_MAC_CTX_new(Self.algorithm) else {
                preconditionFailure("\(OpenSSL.lastError("EVP_MAC_CTX_new"))")
            }
            var parameterName = Array("digest".utf8CString)
            var digestName = Array("SHA256".utf8CString)
            let keyed = OpenSSL.withBytes(key) { keyBytes in
                parameterName.withUnsafeMutableBufferPointer { parameter in
                    digestName.withUnsafeMutableBufferPointer { digest in
                        let parameters = [
                            OSSL_PARAM_construct_utf8_string(parameter.baseAddress, digest.baseAddress, 0),
                            OSSL_PARAM_construct_end(),
                        ]
                        // A non-nil key pointer even for an empty key: NULL would mean "keep the previous key".
                        return EVP_MAC_init(
                            context, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count, parameters)
                    }
                }
            }
            // Fails only when OpenSSL cannot allocate or find SHA-256: nothing a caller could recover from.
            precondition(keyed == 1, "\(OpenSSL.lastError("EVP_MAC_init(HMAC-SHA256)"))")
            template = context
            idle = .allocate(capacity: Self.maximumIdle)
            idleCount = .allocate(capacity: 1)
            idleCount.initialize(to: 0)
        }

        deinit {
            for index in 0..<idleCount.pointee { EVP_MAC_CTX_free(idle[index]) }
            idle.deallocate()
            idleCount.deallocate()
            EVP_MAC_CTX_free(template)
        }

        /// A keyed context at the start of a message: an idle one, or a copy of the template.
        func start() -> MessageState {
            lock.lock()
            defer { lock.unlock() }
            if idleCount.pointee > 0 {
                idleCount.pointee -= 1
                return idle[idleCount.pointee]
            }
            // Under the lock too: the template is only read, but OpenSSL does not promise that
            // concurrent duplications of one context are safe. This runs only when the pool is empty.
            guard let context = EVP_MAC_CTX_dup(template) else {
                preconditionFailure("\(OpenSSL.lastError("EVP_MAC_CTX_dup"))")
            }
            return context
        }

        static func update(_ context: inout MessageState, with bytes: UnsafeRawBufferPointer) {
            let status = EVP_MAC_update(context, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
            // Fails only for a context OpenSSL could not set up, which a `KeyEngine` never hands out.
            precondition(status == 1, "\(OpenSSL.lastError("EVP_MAC_update(HMAC-SHA256)"))")
        }

        /// The MAC of the message fed to `context`, which goes back to the pool.
        func finish(_ context: MessageState) -> AuthenticationCode {
            var code = AuthenticationCode()
            var length = 0
            let finished = code.withUnsafeMutableBytes { output in
                EVP_MAC_final(
                    context, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &length, output.count)
            }
            precondition(finished == 1 && length == byteCount, "\(OpenSSL.lastError("EVP_MAC_final(HMAC-SHA256)"))")
            checkIn(context)
            return code
        }

        /// A message given up half-way: its context goes back to the pool, reset.
        func abandon(_ context: MessageState) {
            checkIn(context)
        }

        /// Resets `context` to the start of a message (same key) and keeps it for the next caller.
        private func checkIn(_ context: OpaquePointer) {
            // A NULL key re-initialises with the key already set; the pads are not derived again.
            guard EVP_MAC_init(context, nil, 0, nil) == 1 else {
                // Not expected; this context is dropped (a later call duplicates the template) and
                // the error queue is cleared so that no later failure reports this entry.
                _ = OpenSSL.lastError("EVP_MAC_init(reset)")
                EVP_MAC_CTX_free(context)
                return
            }
            lock.lock()
            let kept = idleCount.pointee < Self.maximumIdle
            if kept {
                idle[idleCount.pointee] = context
                idleCount.pointee += 1
            }
            lock.unlock()
            if !kept { EVP_MAC_CTX_free(context) }
        }
    }
}
#endif
