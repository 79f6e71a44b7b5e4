import CardPayload
import Foundation
import SandboxCrypto
import Testing

@Suite("Sealed payloads")
struct PayloadSealerTests {
    let key: [UInt8] = Array(0..<32)
    let card = CardData(
        pan: "4761730000000011", expiry: "2812", brand: .visa, country: "BE", aid: "A0000000031010",
        applicationLabel: "VISA DEBIT", cvm: .noCVM, panSequence: "01")

    var payload: CardPayload {
        CardPayload(readId: "9f86d081884c7d659a2feaa0c55ad015", readAt: 1_795_956_502_555, card: card)
    }

    func seal(_ payload: some Encodable, seed: UInt64? = nil) throws -> String {
        try PayloadSealer.seal(
            payload, key: key, region: "EU", terminalId: "EU-T0101", random: seed.map { SeededRandomSource(seed: $0) })
    }

    func open(_ sealed: String, key: [UInt8]? = nil, region: String = "EU", terminal: String = "EU-T0101") throws
        -> CardPayload
    {
        try PayloadSealer.open(sealed, as: CardPayload.self, key: key ?? self.key, region: region, terminalId: terminal)
    }

    @Test func cardPayloadRoundTrips() throws {
        #expect(try open(try seal(payload)) == payload)
        var withPin = payload
        withPin.pin = "1234"
        withPin.card?.cvm = .onlinePin
        #expect(try open(try seal(withPin)) == withPin)
    }

    /// The bytes a reader sends are the contract between device and host, on every platform: the
    /// device seals with CryptoKit on iOS and macOS, the host opens with OpenSSL on Linux.
    @Test("a sealed card payload is pinned byte for byte (base64 of nonce ‖ ciphertext ‖ tag), whichever library seals it")
    func sealedPayloadIsPinned() throws {
        let sealed = try seal(payload, seed: 7)
        #expect(sealed == Self.pinnedPayload)
        #expect(try open(Self.pinnedPayload) == payload)
    }

    /// Sealed by OpenSSL under key 00 01 … 1f with the nonce of `SeededRandomSource(seed: 7)`.
    static let pinnedPayload =
        "Wnb5Tvf6WLPSLEhPuZ1Ek9XHzrgDT6e4xiVntt/0LAYwiUWn29H5hDclFGlqO/V6K7QzxQFgYj1jRP9hYS2VEAKqwm/2HJSd4tct"
        + "hsOPHDf4Q1TAnIKJQfX+4yRJ2dfQWvjq+XVdjumk+teC3L3Ddpc5LOhqNvm02QN8osQpK00UGoZujL1NfQONhO2zExQgOxCwLhm/"
        + "CfZCLJOxotFjPVCHREwYfPQfOm4qZdYGGLFfLeRpFSVEQ3x52mHJP9CGClgoQaxN1l9oxVPhSYBeUvYZc7HoK8M3ZNxNUgU7jMD4"
        + "o1niqaZxh5WUH6gCRsQgQrY6AQberpc8AbHB60bW2k21dOGoVp5GwsKS+ceYvAA9WzvD4KqmeQ=="

    @Test func pinPayloadRoundTrips() throws {
        let pin = PinPayload(readId: "0c2a1d5e8f3b47a69d1e2f3a4b5c6d7e", readAt: 1_795_956_530_120, pin: "1234")
        let opened = try PayloadSealer.open(
            try seal(pin), as: PinPayload.self, key: key, region: "EU", terminalId: "EU-T0101")
        #expect(opened == pin)
    }

    @Test func wireLayoutIsNonceCiphertextTagWithContractJSON() throws {
        let sealed = try seal(payload, seed: 1)
        let bytes = try Base64.decode(sealed)
        let box = try AESGCM.SealedBox(combined: bytes)
        #expect(box.nonce == SeededRandomSource(seed: 1).bytes(count: 12))
        let plaintext = try AESGCM.open(
            box, key: key, associatedData: Array("tapsandbox-card-v1|EU|EU-T0101".utf8))
        let json = String(decoding: plaintext, as: UTF8.self)
        #expect(json.contains(#""pin":null"#))
        #expect(json.contains(#""cvm":"none""#))
        #expect(json.contains(#""readAt":1795956502555"#))
        #expect(json.contains(#""v":1"#))
        #expect(bytes.count == 12 + plaintext.count + 16)
    }

    @Test func seededRandomGivesReproducibleSealing() throws {
        #expect(try seal(payload, seed: 42) == seal(payload, seed: 42))
        #expect(try seal(payload, seed: 42) != seal(payload, seed: 43))
        #expect(try seal(payload) != seal(payload))
    }

    @Test(arguments: [0, 5, 11, 12, 40, -1])
    func openRefusesATamperedByte(at position: Int) throws {
        var bytes = try Base64.decode(try seal(payload))
        let index = position < 0 ? bytes.count - 1 : position
        bytes[index] ^= 0x01
        #expect(throws: PayloadError.authenticationFailed) { try open(Base64.encode(bytes)) }
    }

    @Test func openRefusesAnotherKey() throws {
        let sealed = try seal(payload)
        #expect(throws: PayloadError.authenticationFailed) { try open(sealed, key: Array(32..<64)) }
    }

    @Test func openRefusesAnotherTerminal() throws {
        let sealed = try seal(payload)
        #expect(throws: PayloadError.authenticationFailed) { try open(sealed, terminal: "EU-T0102") }
    }

    @Test func openRefusesAnotherRegion() throws {
        let sealed = try seal(payload)
        #expect(throws: PayloadError.authenticationFailed) { try open(sealed, region: "ANZ") }
    }

    @Test(arguments: ["not base64!", "@@@@", "a", "ab cd"])
    func openRefusesTextThatIsNotBase64(_ text: String) {
        #expect(throws: PayloadError.notBase64) { try open(text) }
    }

    @Test func openRefusesATruncatedPayload() throws {
        let bytes = try Base64.decode(try seal(payload))
        #expect(throws: PayloadError.tooShort) { try open(Base64.encode(bytes.prefix(27))) }
        #expect(throws: PayloadError.tooShort) { try open("") }
        #expect(throws: PayloadError.authenticationFailed) { try open(Base64.encode(bytes.dropLast())) }
    }

    @Test func aPinPayloadDoesNotOpenAsACardPayloadNorTheOtherWay() throws {
        let pin = PinPayload(readId: "0c2a1d5e8f3b47a69d1e2f3a4b5c6d7e", readAt: 1, pin: "1234")
        #expect(throws: PayloadError.malformed) { try open(try seal(pin)) }
        var cardWithPin = payload
        cardWithPin.pin = "1234"
        #expect(throws: PayloadError.malformed) {
            try PayloadSealer.open(
                try seal(cardWithPin), as: PinPayload.self, key: key, region: "EU", terminalId: "EU-T0101")
        }
    }

    @Test func openRefusesAuthenticJSONOfTheWrongShape() throws {
        struct Wrong: Encodable {
            let v = 2
            let readId = "9f86d081884c7d659a2feaa0c55ad015"
            let readAt = 1
            let card: String? = nil
        }
        struct BadReadID: Encodable {
            let v = 1
            let readId = "NOT-HEX"
            let readAt = 1
            let card: String? = nil
        }
        #expect(throws: PayloadError.malformed) { try open(try seal(Wrong())) }
        #expect(throws: PayloadError.malformed) { try open(try seal(BadReadID())) }
        #expect(throws: PayloadError.malformed) { try open(try seal(["hello"])) }
    }

    /// A key twice in an authentic payload: refused, not read first-wins (another reader of the
    /// same bytes, keeping the last, would see another read id or card).
    @Test func anAuthenticPayloadWithARepeatedKeyIsRefused() throws {
        let json = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
        let repeated = "{\"readId\":\"00000000000000000000000000000000\"," + json.dropFirst()
        func sealed(_ text: String) throws -> String {
            let box = try AESGCM.seal(
                Data(text.utf8), key: key, nonce: nil, associatedData: PayloadSealer.associatedData(region: "EU", terminalId: "EU-T0101"))
            return Base64.encode(box.combined)
        }
        #expect(try open(try sealed(json)) == payload, "the same bytes without the repeat open")
        #expect(throws: PayloadError.malformed) { try open(try sealed(repeated)) }
    }

    @Test func aKeyOfTheWrongLengthIsRefused() {
        #expect(throws: PayloadError.invalidKey) {
            try PayloadSealer.seal(payload, key: Array(0..<16), region: "EU", terminalId: "EU-T0101")
        }
        #expect(throws: PayloadError.invalidKey) {
            try PayloadSealer.open("AAAA", as: CardPayload.self, key: [], region: "EU", terminalId: "EU-T0101")
        }
    }

    @Test(arguments: [
        ("4761730000000011", "476173******0011"),
        ("378282246310005", "378282*****0005"),
        ("6799990100000000019", "679999*********0019"),
        ("12345678901", "123456*8901"),
        ("1234567890", "******7890"),
        ("1234", "****"),
        ("4761-7300-0000-0011", "4761-7*********0011"),
        ("476173€0000000011", "476173*******0011"),
    ])
    func maskedPANKeepsFirstSixAndLastFour(pan: String, masked: String) {
        #expect(MaskedPAN.mask(pan) == masked)
    }

    @Test func expiryMeansTheEndOfTheMonth() {
        let endOfDecember2028 = Date(timeIntervalSince1970: 1_861_919_999)  // 2028-12-31T23:59:59Z
        #expect(!card.isExpired(at: endOfDecember2028))
        #expect(card.isExpired(at: endOfDecember2028.addingTimeInterval(1)))
        #expect(CardData.isValidExpiry("2812"))
        #expect(!CardData.isValidExpiry("2813"))
        #expect(!CardData.isValidExpiry("281"))
    }

    /// The calendar arithmetic against Foundation's Gregorian calendar, for every YYMM there is.
    @Test func validityEndsAsFoundationsCalendarSays() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for yy in 0...99 {
            for mm in 1...12 {
                let next = mm == 12 ? DateComponents(year: 2000 + yy + 1, month: 1, day: 1) : DateComponents(year: 2000 + yy, month: mm + 1, day: 1)
                let expiry = String(format: "%02d%02d", yy, mm)
                #expect(CardData.validityEnd(of: expiry) == calendar.date(from: next), "\(expiry)")
            }
        }
        #expect(CardData.validityEnd(of: "2813") == nil)
        #expect(CardData.validityEnd(of: "28a2") == nil)
    }
}
