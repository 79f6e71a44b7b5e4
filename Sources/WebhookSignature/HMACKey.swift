import SandboxCrypto

/// An HMAC-SHA256 key prepared once (RFC 2104's padded inner and outer keys), for verifiers
/// that check many messages under one secret.
///
/// `HMACSHA256.authenticate` sets up a keyed context on every call; a verifier instead hashes
/// `innerPad || message` and `outerPad || innerDigest` with two plain SHA-256 calls, and builds
/// the message right after the inner pad in one buffer. The MAC is the same (the known-answer
/// tests check it against Python's `hmac` and against `HMACSHA256`).
struct HMACKey: Sendable {
    private static let blockSize = 64

    /// `key ⊕ 0x36…` (inner) and `key ⊕ 0x5c…` (outer), each one SHA-256 block long.
    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    init(_ key: [UInt8]) {
        // A key longer than a block is replaced by its hash, as RFC 2104 says.
        var block = key.count > Self.blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: Self.blockSize - block.count)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5c }
    }

    /// The HMAC-SHA256 of a message that `build` writes after the block it is given.
    func authenticate(_ build: ([UInt8]) -> [UInt8]) -> [UInt8] {
        var outer = outerPad
        outer.append(contentsOf: SHA256.hash(build(innerPad)))
        return SHA256.hash(outer)
    }
}
