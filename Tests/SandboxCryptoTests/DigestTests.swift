import Foundation
import Testing
@testable import SandboxCrypto

@Suite("SHA-256 and HMAC-SHA256")
struct DigestTests {
    @Test("SHA-256 known answers (FIPS 180-2)", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256KnownAnswers(message: String, expected: String) throws {
        #expect(Hex.encode(SHA256.hash(Array(message.utf8))) == expected)
        #expect(SHA256.hexDigest(message) == expected)
        #expect(try SHA256.hash(Data(message.utf8)) == Hex.decode(expected))
    }

    @Test("SHA-256 of one million 'a' (FIPS 180-2 long message)")
    func sha256LongMessage() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("SHA-256 of a non-contiguous collection matches its array")
    func sha256OfSlice() {
        let bytes = Array(0...255).map(UInt8.init)
        #expect(SHA256.hash(bytes[10..<200]) == SHA256.hash(Array(bytes[10..<200])))
    }

    @Test("HMAC-SHA256 RFC 4231 test case 1")
    func hmacCase1() throws {
        let key = [UInt8](repeating: 0x0b, count: 20)
        let mac = HMACSHA256.authenticate(key: key, message: Array("Hi There".utf8))
        #expect(Hex.encode(mac) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test("HMAC-SHA256 RFC 4231 test case 2")
    func hmacCase2() {
        let mac = HMACSHA256.authenticate(key: "Jefe", message: "what do ya want for nothing?")
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("HMAC-SHA256 RFC 4231 test case 6 (key longer than the block)")
    func hmacCase6() {
        let key = [UInt8](repeating: 0xaa, count: 131)
        let mac = HMACSHA256.authenticate(
            key: key,
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        )
        #expect(Hex.encode(mac) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("HMAC-SHA256 with an empty key is the RFC 2104 empty-key MAC, not a reused key")
    func hmacEmptyKey() {
        // Known answer for HMAC-SHA256(key: "", message: "").
        let mac = HMACSHA256.authenticate(key: [UInt8](), message: [UInt8]())
        #expect(Hex.encode(mac) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        // Computing another MAC first must not change it.
        _ = HMACSHA256.authenticate(key: "other", message: "x")
        #expect(HMACSHA256.authenticate(key: [UInt8](), message: [UInt8]()) == mac)
    }

    @Test("A MONEI-style signature verifies, and a changed body does not")
    func webhookStyleSignature() throws {
        let secret = Array("whsec_test".utf8)
        let signed = Array("1700000000.{\"id\":\"pay_1\"}".utf8)
        let header = Hex.encode(HMACSHA256.authenticate(key: secret, message: signed))
        #expect(HMACSHA256.isValid(try Hex.decode(header), key: secret, message: signed))
        #expect(!HMACSHA256.isValid(try Hex.decode(header), key: secret, message: Array("1700000000.{}".utf8)))
        #expect(!HMACSHA256.isValid(try Hex.decode(header).dropLast(), key: secret, message: signed))
    }
}
