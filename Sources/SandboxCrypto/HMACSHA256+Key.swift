import Foundation

extension HMACSHA256 {
    /// An HMAC-SHA256 key set up once, for many MACs under the same secret.
    ///
    /// ``HMACSHA256/authenticate(key:message:)`` derives the padded inner and outer keys on every
    /// call. A `Key` does that once and starts each MAC from the keyed state: on Linux it keeps an
    /// OpenSSL `EVP_MAC_CTX` keyed with the secret and a small pool of keyed contexts; on Apple
    /// platforms it keeps a keyed CryptoKit `HMAC<SHA256>` and copies it per MAC. A verifier that
    /// checks many webhooks under one secret keeps one `Key`.
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
    /// A `Key` is safe to use from several threads at once: each MAC runs on a state of its own.
    /// The MAC is the same as ``HMACSHA256/authenticate(key:message:)``'s for every key length.
    public final class Key: Sendable {
        private let engine: KeyEngine

        /// Sets up `key` for HMAC-SHA256.
        ///
        /// - Parameter key: The secret key; any length, including empty (longer than 64 bytes is
        ///   hashed first, as RFC 2104 says).
        public init(_ key: some DataProtocol) {
            engine = KeyEngine(key)
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
            var message = Message(state: engine.start())
            do {
                try write(&message)
            } catch {
                engine.abandon(&message.state)
                throw error
            }
            return engine.finish(&message.state)
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
    }

    /// The message of one ``Key/authenticate(_:)`` call, given in pieces.
    ///
    /// It exists only inside the closure passed to ``Key/authenticate(_:)``.
    public struct Message: ~Copyable {
        /// The running MAC: an OpenSSL context (Linux) or a CryptoKit `HMAC` (Apple platforms).
        var state: MessageState

        init(state: MessageState) {
            self.state = state
        }

        /// Appends `bytes` to the message.
        ///
        /// - Parameter bytes: The next piece; may be empty.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            KeyEngine.update(&state, with: bytes)
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

        mutating func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
            Swift.withUnsafeMutableBytes(of: &storage, body)
        }
    }
}
