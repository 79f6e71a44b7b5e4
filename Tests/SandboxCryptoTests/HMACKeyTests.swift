import Foundation
import Testing
import SandboxCrypto

@Suite("HMAC-SHA256 with a key set up once")
struct HMACKeyTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var key: [UInt8]
        var message: [UInt8]
        var mac: String
        var testDescription: String { name }
    }

    /// RFC 4231 §4 (test case 5, a truncated MAC, has nothing to add here).
    static let rfc4231: [Vector] = [
        Vector(
            name: "case 1", key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8),
            mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(
            name: "case 2", key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
            mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(
            name: "case 3", key: [UInt8](repeating: 0xaa, count: 20), message: [UInt8](repeating: 0xdd, count: 50),
            mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(
            name: "case 4", key: (1...25).map { UInt8($0) }, message: [UInt8](repeating: 0xcd, count: 50),
            mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(
            name: "case 6 (key longer than the block)", key: [UInt8](repeating: 0xaa, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(
            name: "case 7 (long key and long message)", key: [UInt8](repeating: 0xaa, count: 131),
            message: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        Vector(
            name: "empty key, empty message", key: [], message: [],
            mac: "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"),
    ]

    @Test("RFC 4231 vectors, whole and in pieces split at every position", arguments: rfc4231)
    func knownAnswers(vector: Vector) {
        let key = HMACSHA256.Key(vector.key)
        // Twice: the second MAC comes from a context that was reset, not freshly keyed.
        #expect(Hex.encode(key.authenticate(vector.message)) == vector.mac)
        #expect(Hex.encode(key.authenticate(vector.message)) == vector.mac)
        #expect(key.isValid(try! Hex.decode(vector.mac), message: vector.message))
        for split in 0...vector.message.count {
            let mac = vector.message.withUnsafeBufferPointer { message in
                key.authenticate { input in
                    input.update(UnsafeBufferPointer(rebasing: message[..<split]))
                    input.update(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(message)[split...]))
                }
            }
            #expect(Hex.encode(mac.bytes) == vector.mac, "split at \(split)")
        }
    }

    @Test("the same MAC as the one-shot function, for many messages in a row under one key")
    func matchesOneShot() {
        let random = SeededRandomSource(seed: 4231)
        for keyLength in [0, 1, 20, 32, 63, 64, 65, 128, 200] {
            let keyBytes = random.bytes(count: keyLength)
            let key = HMACSHA256.Key(keyBytes)
            for messageLength in [0, 1, 55, 56, 63, 64, 65, 119, 120, 1024, 4097] + (0..<20).map({ _ in random.int(in: 0...3000) }) {
                let message = random.bytes(count: messageLength)
                let expected = HMACSHA256.authenticate(key: keyBytes, message: message)
                #expect(key.authenticate(message) == expected, "key \(keyLength) B, message \(messageLength) B")
                #expect(key.authenticate(Data(message)) == expected)
                // Uneven pieces, some of them empty.
                let pieces = key.authenticate { input in
                    var start = 0
                    while start < message.count {
                        let end = min(message.count, start + random.int(in: 0...100))
                        input.update(message[start..<end])
                        start = end
                    }
                    input.update([UInt8]())
                }
                #expect(pieces.bytes == expected)
            }
        }
    }

    @Test("a message abandoned by a throwing closure leaves nothing behind for the next one")
    func abandonedMessage() {
        struct Stop: Error {}
        let key = HMACSHA256.Key(Array("key".utf8))
        let expected = HMACSHA256.authenticate(key: "key", message: "message")
        for _ in 0..<3 {
            #expect(throws: Stop.self) {
                _ = try key.authenticate { (input: inout HMACSHA256.Message) throws(Stop) in
                    input.update(Array("garbage that must not stay in the context".utf8))
                    throw Stop()
                }
            }
            #expect(key.authenticate(Array("message".utf8)) == expected)
        }
    }

    @Test("MACs nested inside one another each get their own context, beyond the pool's size")
    func nested() {
        let key = HMACSHA256.Key(Array("nested".utf8))
        func mac(depth: Int) -> [UInt8] {
            key.authenticate { input in
                input.update(Array("depth \(depth)".utf8))
                // Computed while this MAC's context is still in use.
                if depth < 40 { input.update(mac(depth: depth + 1)) }
            }.bytes
        }
        func expected(depth: Int) -> [UInt8] {
            HMACSHA256.authenticate(
                key: Array("nested".utf8),
                message: Array("depth \(depth)".utf8) + (depth < 40 ? expected(depth: depth + 1) : []))
        }
        #expect(mac(depth: 0) == expected(depth: 0))
        #expect(mac(depth: 0) == expected(depth: 0))
    }

    @Test("one key used from many threads at once gives every thread its own message's MAC")
    func concurrent() async {
        let keyBytes = Array("shared secret".utf8)
        let key = HMACSHA256.Key(keyBytes)
        let messages = (0..<64).map { index in SeededRandomSource(seed: UInt64(index)).bytes(count: 500 + index * 37) }
        let expected = messages.map { HMACSHA256.authenticate(key: keyBytes, message: $0) }
        // Real threads, not only tasks, so that calls overlap even on a machine with few cores.
        let mismatches = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            DispatchQueue.global().async {
                let failures = Failures()
                DispatchQueue.concurrentPerform(iterations: 32) { thread in
                    for round in 0..<200 {
                        let index = (thread * 7 + round) % messages.count
                        if key.authenticate(messages[index]) != expected[index] { failures.add() }
                    }
                }
                continuation.resume(returning: failures.count)
            }
        }
        #expect(mismatches == 0)
        await withTaskGroup(of: Bool.self) { group in
            for index in messages.indices {
                group.addTask { key.authenticate(messages[index]) == expected[index] }
            }
            for await matched in group { #expect(matched) }
        }
    }

    @Test("the buffer form of constant-time equals agrees with the collection form")
    func constantTimeBuffers() {
        let mac = HMACSHA256.Key(Array("k".utf8)).authenticate { $0.update(Array("m".utf8)) }
        mac.withUnsafeBytes { bytes in
            #expect(bytes.count == HMACSHA256.byteCount)
            #expect(ConstantTime.equals(bytes, UnsafeRawBufferPointer(rebasing: bytes[...])))
            #expect(!ConstantTime.equals(bytes, UnsafeRawBufferPointer(rebasing: bytes.dropLast())))
            var changed = Array(bytes)
            changed[31] ^= 1
            changed.withUnsafeBytes { #expect(!ConstantTime.equals(bytes, $0)) }
            #expect(ConstantTime.equals(UnsafeRawBufferPointer(start: nil, count: 0), UnsafeRawBufferPointer(rebasing: bytes[0..<0])))
        }
        #expect(mac.bytes == HMACSHA256.authenticate(key: "k", message: "m"))
    }
}

/// A thread-safe counter for failures seen on worker threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
