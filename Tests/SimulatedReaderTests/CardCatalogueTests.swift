import CardPayload
import Foundation
import SimulatedReader
import Testing
import TestSupport

@Suite("cards.json")
struct CardCatalogueTests {
    let cards = Fixtures.catalogue.cards
    /// A fixed judging date: 2026-06-01T00:00:00Z.
    let judgedAt = Date(timeIntervalSince1970: 1_780_272_000)

    @Test func theShippedFileLoadsWithEnoughUniquelyNamedLuhnValidCards() {
        #expect(cards.count >= 16)
        #expect(Set(cards.map(\.name)).count == cards.count)
        #expect(cards.allSatisfy { Luhn.isValid($0.pan) })
        #expect(Set(cards.map(\.pan)).count == cards.count)
    }

    @Test(arguments: [
        "visa", "mc", "maestro", "amex", "discover", "jcb", "unionpay", "eftpos-au",
        "visa-us-dcc", "mc-gb-dcc", "visa-jp-dcc", "mc-pin", "visa-pin",
        "amex-expired", "visa-expired", "visa-decline",
    ])
    func requiredCardExists(_ name: String) {
        #expect(Fixtures.catalogue.card(named: name) != nil)
    }

    @Test func everyBrandIsRepresented() {
        #expect(Set(cards.map(\.brand)) == Set(CardBrand.allCases))
        #expect(Fixtures.card("eftpos-au").pan.count == 16)
        #expect(Fixtures.card("amex").pan.count == 15)
    }

    @Test func expiredCardsAreExpiredAndTheOthersAreNot() {
        for card in cards {
            #expect(card.cardData.isExpired(at: judgedAt) == card.has(.expired), "\(card.name) \(card.expiry)")
        }
        #expect(Fixtures.card("amex-expired").has(.expired))
        #expect(Fixtures.card("visa-expired").has(.expired))
        #expect(Fixtures.card("visa-decline").has(.decline))
    }

    @Test func onlinePinCardsHavePin1234AndTheOthersNone() {
        for card in cards {
            #expect((card.cvm == .onlinePin) == (card.pin != nil), "\(card.name)")
        }
        #expect(Fixtures.card("mc-pin").pin == "1234")
        #expect(Fixtures.card("visa-pin").pin == "1234")
        #expect(Fixtures.card("visa-pin").cvm == .onlinePin)
    }

    /// Each DCC region (EUR, AUD, CZK, PLN) has foreign cards, and each region's country has a domestic Visa or MC.
    @Test(arguments: ["BE", "DE", "AT", "IT", "FR", "NL", "CZ", "PL", "AU"])
    func everyRegionCountryHasDomesticAndForeignCards(country: String) {
        #expect(cards.contains { $0.country == country && !$0.has(.expired) && !$0.has(.decline) })
        #expect(Set(["US", "GB", "JP"]).isSubset(of: Set(cards.map(\.country))))
    }

    @Test func theContractExampleIsTheVisaCard() {
        let visa = Fixtures.card("visa").cardData
        #expect(visa == CardData(
            pan: "4761730000000011", expiry: "2812", brand: .visa, country: "BE", aid: "A0000000031010",
            applicationLabel: "VISA DEBIT", cvm: .noCVM, panSequence: "01"))
    }

    static let good = #"{"name": "x", "pan": "4761730000000011", "expiry": "2812", "brand": "VISA", "country": "BE", "aid": "A0000000031010", "applicationLabel": "VISA DEBIT", "cvm": "none", "pin": null, "flags": []}"#

    static func file(_ card: String, replacing old: String = "", with new: String = "") -> String {
        #"{"cards": [\#(old.isEmpty ? card : card.replacingOccurrences(of: old, with: new))]}"#
    }

    @Test(arguments: [
        (file(good, replacing: "0011", with: "0012"), "cards.json: cards[0].pan: fails the Luhn check"),
        (file(good, replacing: #""2812""#, with: #""2813""#), "cards.json: cards[0].expiry: must be YYMM with a month 01-12"),
        (file(good, replacing: #""VISA""#, with: #""DINERS""#),
         "cards.json: cards[0].brand: \"DINERS\" is not one of VISA, MASTERCARD, MAESTRO, AMEX, DISCOVER, JCB, UNIONPAY, EFTPOS"),
        (file(good, replacing: #""pin": null"#, with: #""pin": "1234""#),
         "cards.json: cards[0].pin: must be null for a card with cvm \"none\""),
        (file(good, replacing: #""cvm": "none""#, with: #""cvm": "onlinePin""#),
         "cards.json: cards[0].pin: an onlinePin card needs a PIN"),
        (file(good, replacing: #""name": "x""#, with: #""name": "Visa""#),
         "cards.json: cards[0].name: must be lowercase letters, digits and -"),
        (file(good, replacing: "A0000000031010", with: "A0000000041010"),
         "cards.json: cards[0].aid: must start with VISA's RID A000000003"),
        (file(good, replacing: #""country": "BE""#, with: #""country": "Belgium""#),
         "cards.json: cards[0].country: must be an ISO 3166-1 alpha-2 code in upper case"),
        (file(good, replacing: #""flags": []"#, with: #""flags": ["stolen"]"#),
         "cards.json: cards[0].flags[0]: must be \"expired\" or \"decline\""),
        (file(good, replacing: #""flags": []"#, with: #""flags": [], "cvv": "123""#), "cards.json: cards[0].cvv: unknown field"),
        (file(good, replacing: #", "aid": "A0000000031010""#, with: ""), "cards.json: cards[0].aid: missing"),
        (file(good, replacing: #""brand": "VISA""#, with: #""brand": "AMEX""#), "cards.json: cards[0].pan: an AMEX PAN starts with 34 or 37"),
        (#"{"cards": [\#(good), \#(good)]}"#, "cards.json: cards[1].name: \"x\" is already used by cards[0]"),
        (#"{"cards": []}"#, "cards.json: cards: must list at least one card"),
        ("[]", "cards.json: (root): must be an object with \"cards\""),
    ])
    func brokenCardsAreRefusedWithTheField(json: String, message: String) {
        do {
            _ = try CardCatalogue(json: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error == .invalidCatalogue)
            #expect(error.message == message)
        }
    }

    @Test func aGoodCardLoadsAndIsFoundByName() throws {
        let catalogue = try CardCatalogue(json: Data(Self.file(Self.good).utf8))
        #expect(catalogue.card(named: "x")?.pan == "4761730000000011")
        #expect(catalogue.card(named: "y") == nil)
    }

    @Test(arguments: [("4761730000000011", true), ("4761730000000012", false), ("", false), ("47617300000000a1", false)])
    func luhn(_ number: String, valid: Bool) {
        #expect(Luhn.isValid(number) == valid)
    }

    @Test func luhnCheckDigitCompletesANumber() {
        #expect(Luhn.checkDigit(for: "476173000000001") == 1)
        #expect(Luhn.checkDigit(for: "400000840000000") == 1)
    }
}
