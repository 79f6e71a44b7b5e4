import Foundation
import Testing
@testable import SandboxCrypto

@Suite("AES-256-GCM")
struct AESGCMTests {
    // McGrew & Viega, "The Galois/Counter Mode of Operation", test cases 13, 14 and 16 (AES-256).
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: String
        let nonce: String
        let plaintext: String
        let associatedData: String
        let ciphertext: String
        let tag: String
        var testDescription: String { name }
    }

    static let vectors = [
        Vector(
            name: "test case 13 (empty plaintext)",
            key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
            plaintext: "", associatedData: "",
            ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"
        ),
        Vector(
            name: "test case 14",
            key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
            plaintext: String(repeating: "00", count: 16), associatedData: "",
            ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"
        ),
        Vector(
            name: "test case 16 (with associated data)",
            key: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
            nonce: "cafebabefacedbaddecaf888",
            plaintext: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
            associatedData: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
            tag: "76fc6ece0f4e1768cddf8853bb2d551b"
        ),
    ]

    @Test("Known-answer vectors seal and open", arguments: vectors)
    func knownAnswer(vector: Vector) throws {
        let key = try Hex.decode(vector.key)
        let plaintext = try Hex.decode(vector.plaintext)
        let associatedData = try Hex.decode(vector.associatedData)
        let box = try AESGCM.seal(plaintext, key: key, nonce: try Hex.decode(vector.nonce), associatedData: associatedData)
        #expect(Hex.encode(box.nonce) == vector.nonce)
        #expect(Hex.encode(box.ciphertext) == vector.ciphertext)
        #expect(Hex.encode(box.tag) == vector.tag)
        // What travels: nonce ‖ ciphertext ‖ tag, the layout of CryptoKit's `combined` too.
        #expect(Hex.encode(box.combined) == vector.nonce + vector.ciphertext + vector.tag)

        let fromParts = try AESGCM.SealedBox(
            nonce: try Hex.decode(vector.nonce),
            ciphertext: try Hex.decode(vector.ciphertext),
            tag: try Hex.decode(vector.tag)
        )
        #expect(try AESGCM.open(fromParts, key: key, associatedData: associatedData) == plaintext)
    }

    @Test("Round trip", arguments: [0, 1, 15, 16, 17, 4096, 3 * 1024 * 1024 + 7])
    func roundTrip(length: Int) throws {
        let random = SeededRandomSource(seed: UInt64(length))
        let key = random.bytes(count: AESGCM.keyByteCount)
        let plaintext = random.bytes(count: length)
        let associatedData = Array("terminal=T-0001".utf8)
        let box = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)
        #expect(box.nonce.count == 12)
        #expect(box.tag.count == 16)
        #expect(box.ciphertext.count == length)
        if length >= 16 { #expect(box.ciphertext != plaintext) }
        #expect(try AESGCM.open(box, key: key, associatedData: associatedData) == plaintext)
    }

    @Test("Data inputs and the combined form round trip")
    func combinedForm() throws {
        let key = Data(SecureRandom.bytes(count: 32))
        let box = try AESGCM.seal(Data("4111111111111111".utf8), key: key)
        #expect(box.combined.count == 12 + 16 + 16)
        let received = try AESGCM.SealedBox(combined: try Base64.decode(Base64.encode(box.combined)))
        #expect(received == box)
        #expect(try AESGCM.open(received, key: key) == Array("4111111111111111".utf8))
    }

    @Test("Two seals of the same plaintext use different nonces and ciphertexts")
    func freshNonces() throws {
        let key = SecureRandom.bytes(count: 32)
        let first = try AESGCM.seal(Array("same".utf8), key: key)
        let second = try AESGCM.seal(Array("same".utf8), key: key)
        #expect(first.nonce != second.nonce)
        #expect(first.ciphertext != second.ciphertext)
    }

    // Tamper detection: every change must throw authenticationFailure and return nothing.

    static let key = [UInt8](repeating: 0x42, count: 32)
    static let associatedData = Array("T-0001|1700000000".utf8)

    static func sealed() throws -> AESGCM.SealedBox {
        try AESGCM.seal(
            Array(#"{"pan":"4111111111111111","exp":"12/30"}"#.utf8),
            key: key,
            nonce: Array(repeating: 7, count: 12),
            associatedData: associatedData
        )
    }

    @Test("A flipped ciphertext byte is rejected", arguments: [0, 5, 39])
    func flippedCiphertext(index: Int) throws {
        let box = try Self.sealed()
        var ciphertext = box.ciphertext
        ciphertext[index] ^= 0x01
        let tampered = try AESGCM.SealedBox(nonce: box.nonce, ciphertext: ciphertext, tag: box.tag)
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(tampered, key: Self.key, associatedData: Self.associatedData)
        }
    }

    @Test("A flipped tag or nonce byte is rejected")
    func flippedTagOrNonce() throws {
        let box = try Self.sealed()
        var tag = box.tag
        tag[15] ^= 0x80
        var nonce = box.nonce
        nonce[0] ^= 0x01
        for tampered in [
            try AESGCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: tag),
            try AESGCM.SealedBox(nonce: nonce, ciphertext: box.ciphertext, tag: box.tag),
            try AESGCM.SealedBox(nonce: box.nonce, ciphertext: Array(box.ciphertext.dropLast()), tag: box.tag),
        ] {
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(tampered, key: Self.key, associatedData: Self.associatedData)
            }
        }
    }

    @Test("Wrong associated data is rejected")
    func wrongAssociatedData() throws {
        let box = try Self.sealed()
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(box, key: Self.key, associatedData: Array("T-0002|1700000000".utf8))
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(box, key: Self.key)
        }
    }

    @Test("A wrong key is rejected")
    func wrongKey() throws {
        let box = try Self.sealed()
        var key = Self.key
        key[31] ^= 0x01
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(box, key: key, associatedData: Self.associatedData)
        }
        // The right key still works afterwards: a failed open leaves no state behind.
        #expect(try AESGCM.open(box, key: Self.key, associatedData: Self.associatedData).count == 40)
    }

    @Test("Wrong sizes are typed errors")
    func wrongSizes() throws {
        #expect(throws: CryptoError.invalidKeySize) {
            try AESGCM.seal([1, 2, 3], key: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: CryptoError.invalidNonceSize) {
            try AESGCM.seal([1, 2, 3], key: Self.key, nonce: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: CryptoError.invalidKeySize) {
            try AESGCM.open(try Self.sealed(), key: [UInt8](repeating: 0, count: 31))
        }
        #expect(throws: CryptoError.invalidSealedBox) {
            try AESGCM.SealedBox(combined: [UInt8](repeating: 0, count: 27))
        }
        #expect(throws: CryptoError.invalidSealedBox) {
            try AESGCM.SealedBox(nonce: [UInt8](repeating: 0, count: 12), ciphertext: [], tag: [1, 2, 3])
        }
        #expect(throws: CryptoError.invalidNonceSize) {
            try AESGCM.SealedBox(nonce: [1], ciphertext: [], tag: [UInt8](repeating: 0, count: 16))
        }
    }
}
