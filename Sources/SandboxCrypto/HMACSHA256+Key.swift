#if canImport(COpenSSL)
internal import COpenSSL
import Foundation

extension HMACSHA256 {
    /// An HMAC-SHA256 key set up once, for many MACs under the same secret.
    ///
    /// ``HMACSHA256/authenticate(key:message:)`` looks SHA-256 up and derives the padded inner and
    /// outer keys on every call. A `Key` does that once: it keeps an OpenSSL `EVP_MAC_CTX` keyed
    /// with the secret and, for each MAC, takes a keyed context from a small pool (duplicating the
    /// template when the pool is empty), feeds it the message and puts it back reset. A verifier
    /// that checks many webhooks under one secret keeps one `Key`.
    ///
    /// A message can be given in pieces, so a signed string such as `"<t>." + body` never has to be
    /// built in memory:
    ///
    /// ```swift
    /// let key = HMACSHA256.Key(Array(apiKey.utf8))
    /// let mac = key.authenticate { message in
    ///     message.update(Array("1700000000.".utf8))
    ///     message.update(body)
    /// }
    /// let header = "t=1700000000,v1=" + Hex.encode(mac.bytes)
    /// ```
    ///
    /// A `Key` is safe to use from several threads at once: each MAC runs on a context of its own.
    /// The MAC is the same as ``HMACSHA256/authenticate(key:message:)``'s for every key length.
    public final class Key: @unchecked Sendable {
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

        /// Sets up `key` for HMAC-SHA256.
        ///
        /// - Parameter key: The secret key; any length, including empty (longer than 64 bytes is
        ///   hashed first, as RFC 2104 says).
        public init(_ key: some DataProtocol) {
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

        /// The HMAC-SHA256 of `message` under this key.
        ///
        /// ```swift
        /// let mac = key.authenticate(Array("what do ya want for nothing?".utf8))
        /// ```
        ///
        /// - Parameter message: The authenticated message; any length, including empty.
        /// - Returns: The 32-byte authentication code.
        public func authenticate(_ message: some DataProtocol) -> [UInt8] {
            authenticate { (input: inout Message) in input.update(message) }.bytes
        }

        /// The HMAC-SHA256 of the message that `write` gives in pieces, in order.
        ///
        /// The pieces are hashed as they come: the MAC is that of their concatenation, which is
        /// never built. `write` must not keep `message` (it cannot: the type is not copyable).
        ///
        /// ```swift
        /// let mac = key.authenticate { message in
        ///     message.update(Array("msg_1.1700000000.".utf8))
        ///     message.update(body)
        /// }
        /// ```
        ///
        /// - Parameter write: Gives the message with ``Message/update(_:)`` calls.
        /// - Returns: The 32-byte authentication code.
        /// - Throws: Whatever `write` throws; no MAC is computed then.
        public func authenticate<Failure: Error>(
            _ write: (inout Message) throws(Failure) -> Void
        ) throws(Failure) -> AuthenticationCode {
            let context = checkOut()
            var message = Message(context: context)
            do {
                try write(&message)
            } catch {
                checkIn(context)
                throw error
            }
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

        /// Whether `mac` is the HMAC-SHA256 of `message` under this key, compared in constant time.
        ///
        /// - Parameters:
        ///   - mac: The authentication code received.
        ///   - message: The message the code claims to authenticate.
        /// - Returns: `true` when the code matches exactly.
        public func isValid(_ mac: some DataProtocol, message: some DataProtocol) -> Bool {
            ConstantTime.equals(authenticate(message), mac)
        }

        /// A keyed context at the start of a message: an idle one, or a copy of the template.
        private func checkOut() -> OpaquePointer {
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

    /// The message of one ``Key/authenticate(_:)`` call, given in pieces.
    ///
    /// It exists only inside the closure passed to ``Key/authenticate(_:)``.
    public struct Message: ~Copyable {
        private let context: OpaquePointer

        fileprivate init(context: OpaquePointer) {
            self.context = context
        }

        /// Appends `bytes` to the message.
        ///
        /// - Parameter bytes: The next piece; may be empty.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
            let status = EVP_MAC_update(context, start.assumingMemoryBound(to: UInt8.self), bytes.count)
            // Fails only for a context OpenSSL could not set up, which `Key` never hands out.
            precondition(status == 1, "\(OpenSSL.lastError("EVP_MAC_update(HMAC-SHA256)"))")
        }

        /// Appends `bytes` to the message.
        ///
        /// - Parameter bytes: The next piece; may be empty.
        public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
            update(UnsafeRawBufferPointer(bytes))
        }

        /// Appends `bytes` to the message.
        ///
        /// - Parameter bytes: The next piece; any collection of bytes, may be empty.
        public mutating func update(_ bytes: some DataProtocol) {
            for region in bytes.regions {
                let done: Void? = region.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
                if done == nil { Array(region).withUnsafeBytes { update($0) } }
            }
        }
    }

    /// A 32-byte HMAC-SHA256 result, held inline (no allocation).
    ///
    /// Compare it with a received MAC through ``ConstantTime/equals(_:_:)`` on ``bytes`` or inside
    /// ``withUnsafeBytes(_:)``, never with `==`: it deliberately is not `Equatable`.
    public struct AuthenticationCode: Sendable, ContiguousBytes {
        @usableFromInline
        var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        init() {}

        /// The 32 bytes, as an array.
        public var bytes: [UInt8] {
            withUnsafeBytes { Array($0) }
        }

        /// Calls `body` with the 32 bytes.
        ///
        /// - Parameter body: Reads the bytes; the buffer is valid only during the call.
        /// - Returns: What `body` returns.
        @inlinable
        public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            try Swift.withUnsafeBytes(of: storage, body)
        }

        fileprivate mutating func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
            Swift.withUnsafeMutableBytes(of: &storage, body)
        }
    }
}
#endif
