import CardPayload
import Foundation
import SandboxTestSupport
import Testing

/// What the host learns when it opens a payload whose card breaks a rule of a card read: each
/// rule its own refusal and message, never "malformed" (which the host reports as tampered).
@Suite("Card reads: the rules a sealed card is opened against")
struct CardRulesTests {
    let key: [UInt8] = Array(0..<32)

    func open(_ card: RawCard) throws -> CardPayload {
        let payload = RawCardPayload(readId: "9f86d081884c7d659a2feaa0c55ad015", readAt: 1_795_956_502_555, card: card)
        let sealed = try PayloadSealer.seal(payload, key: key, region: "EU", terminalId: "EU-T0101")
        return try PayloadSealer.open(sealed, as: CardPayload.self, key: key, region: "EU", terminalId: "EU-T0101")
    }

    static func card(_ change: (inout RawCard) -> Void) -> RawCard {
        var card = RawCard()
        change(&card)
        return card
    }

    @Test func aGoodCardOpens() throws {
        #expect(try open(RawCard()).card?.pan == "4761730000000011")
    }

    @Test(arguments: [
        (card { $0.pan = "4761730000000012" }, PayloadError.invalidPAN, "The card's PAN fails the Luhn check."),
        (card { $0.pan = "47617300000000a1" }, .invalidPAN, "The card's PAN must be 12 to 19 digits."),
        (card { $0.pan = "47617300011" }, .invalidPAN, "The card's PAN must be 12 to 19 digits."),
        (card { $0.country = "ZZ" }, .invalidCountry, "The card's country \"ZZ\" is not an ISO 3166-1 alpha-2 country code."),
        (card { $0.country = "EU" }, .invalidCountry, "The card's country \"EU\" is not an ISO 3166-1 alpha-2 country code."),
        (card { $0.country = "be" }, .invalidCountry, "The card's country \"be\" is not an ISO 3166-1 alpha-2 country code."),
        (card { $0.brand = "AMEX"; $0.aid = "A00000002501" }, .brandMismatch,
         "The card's brand AMEX does not match its PAN: an AMEX PAN starts with 34 or 37."),
        (card { $0.aid = "A0000000041010" }, .brandMismatch,
         "The card's brand VISA does not match its AID: the AID must start with VISA's RID A000000003."),
        (card { $0.brand = "DINERS" }, .unknownBrand,
         "The card's brand \"DINERS\" is not one of VISA, MASTERCARD, MAESTRO, AMEX, DISCOVER, JCB, UNIONPAY, EFTPOS."),
        (card { $0.cvm = "signature" }, .unknownCVM, "The card's cvm \"signature\" is neither none nor onlinePin."),
        (card { $0.expiry = "2813" }, .invalidCardData, "The card's expiry must be YYMM with a month 01-12."),
        (card { $0.aid = "A00000000310G0" }, .invalidCardData, "The card's AID must be 5 to 16 bytes of hex."),
        (card { $0.applicationLabel = "" }, .invalidCardData, "The card's application label must be 1 to 16 characters."),
        (card { $0.panSequence = "1" }, .invalidCardData, "The card's PAN sequence must be two digits or null."),
    ])
    func aBrokenCardIsRefusedWithItsOwnReason(card: RawCard, error: PayloadError, message: String) {
        do {
            let opened = try open(card)
            Issue.record("opened \(opened)")
        } catch let refusal as PayloadError {
            #expect(refusal == error)
            #expect(refusal.message == message)
            #expect(refusal.refusesCard)
        } catch {
            Issue.record("not a PayloadError: \(error)")
        }
    }

    @Test func thePayloadsOwnFaultsAreNotCardRefusals() {
        #expect(!PayloadError.malformed.refusesCard)
        #expect(!PayloadError.authenticationFailed.refusesCard)
        #expect(PayloadError.invalidPAN != .invalidCountry)
    }

    @Test(arguments: [("BE", true), ("AU", true), ("XK", true), ("ZZ", false), ("UN", false), ("QO", false), ("AA", false), ("B", false)])
    func countries(code: String, valid: Bool) {
        #expect(CardData.isCountry(code) == valid)
    }

    @Test func everyBrandRuleAcceptsTheShippedPrefixesAndRefusesAnother() {
        #expect(CardBrand.visa.panMismatch("4761730000000011") == nil)
        #expect(CardBrand.mastercard.panMismatch("2223003122003222") == nil)
        #expect(CardBrand.amex.panMismatch("378282246310005") == nil)
        #expect(CardBrand.visa.panMismatch("5555555555554444") == "a VISA PAN starts with 4")
        #expect(CardBrand.amex.panMismatch("3782822463100055") == "an AMEX PAN has 15 digits")
    }
}
