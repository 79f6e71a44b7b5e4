import Foundation
import Testing
@testable import SandboxCrypto

@Suite("Hex, base64, constant-time compare, errors")
struct EncodingTests {
    @Test("Hex encodes lowercase and decodes either case")
    func hexRoundTrip() throws {
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Hex.encode(Data([0xde, 0xad, 0xbe, 0xef])) == "deadbeef")
        #expect(Hex.encode([UInt8]()) == "")
        #expect(try Hex.decode("DEADbeef") == [0xde, 0xad, 0xbe, 0xef])
        #expect(try Hex.decodeData("00ff") == Data([0x00, 0xff]))
        let all = (0...255).map(UInt8.init)
        #expect(try Hex.decode(Hex.encode(all)) == all)
    }

    @Test("Malformed hex is refused", arguments: ["abc", "0g", "0x00", " 00", "zz", "é0"])
    func hexRefused(text: String) {
        #expect(throws: CryptoError.invalidHex) { try Hex.decode(text) }
    }

    @Test("Base64 standard and URL-safe (RFC 4648 vectors)", arguments: [
        ("", "", ""),
        ("f", "Zg==", "Zg"),
        ("fo", "Zm8=", "Zm8"),
        ("foo", "Zm9v", "Zm9v"),
        ("foobar", "Zm9vYmFy", "Zm9vYmFy"),
    ])
    func base64Vectors(plain: String, standard: String, url: String) throws {
        #expect(Base64.encode(Array(plain.utf8)) == standard)
        #expect(Base64.encode(Array(plain.utf8), urlSafe: true) == url)
        #expect(try Base64.decode(standard) == Array(plain.utf8))
        #expect(try Base64.decode(url) == Array(plain.utf8))
    }

    @Test("URL-safe base64 avoids + and /")
    func base64URLSafe() throws {
        let bytes: [UInt8] = [0xfb, 0xff, 0xfe]
        #expect(Base64.encode(bytes) == "+//+")
        #expect(Base64.encode(bytes, urlSafe: true) == "-__-")
        #expect(try Base64.decode("-__-") == bytes)
        #expect(try Base64.decodeData("+//+") == Data(bytes))
    }

    @Test("Malformed base64 is refused", arguments: ["Z", "Zm9v!", "Zm 9v", "Zg==="])
    func base64Refused(text: String) {
        #expect(throws: CryptoError.invalidBase64) { try Base64.decode(text) }
    }

    @Test("Constant-time equals compares contents and lengths")
    func constantTimeEquals() {
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals([1, 2, 3] as [UInt8], Data([1, 2, 3])))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([0, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!ConstantTime.equals([UInt8](), [0] as [UInt8]))
        let mac = HMACSHA256.authenticate(key: "k", message: "m")
        #expect(ConstantTime.equals(mac, mac[...]))
    }

    @Test("Errors compare by kind and describe themselves")
    func errors() {
        #expect(CryptoError.authenticationFailure == .authenticationFailure)
        #expect(CryptoError.authenticationFailure != .invalidKeySize)
        let library = CryptoError.library(code: 42, message: "EVP failed")
        #expect(library == .libraryFailure)
        #expect(library.libraryCode == 42)
        #expect(CryptoError.invalidHex.libraryCode == nil)
        #expect(library.description.contains("EVP failed"))
        #expect(CryptoError.invalidHex.description.contains("invalidHex"))
    }
}
