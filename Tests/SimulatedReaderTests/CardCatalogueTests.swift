import CardPayload
import Foundation
import SimulatedReader
import Testing
import SandboxTestSupport

@Suite("cards.json")
struct CardCatalogueTests {
    let cards = Fixtures.catalogue.cards
    /// A fixed judging date: 2026-06-01T00:00:00Z.
    let judgedAt = Date(timeIntervalSince1970: 1_780_272_000)

    @Test func theShippedFileLoadsWithEnoughUniquelyNamedLuhnValidCards() {
        #expect(cards.count >= 16)
        #expect(Set(cards.map(\.name)).count == cards.count)
        #expect(cards.filter { !$0.has(.malformed) }.allSatisfy { Luhn.isValid($0.pan) && $0.cardData.problem == nil })
        #expect(Set(cards.map(\.pan)).count == cards.count)
    }

    /// The deliberately malformed cards each break the rule they are named for, so the host's
    /// refusals can be tried with `tapsim pay --card …`.
    @Test(arguments: [
        ("visa-bad-luhn", PayloadError.invalidPAN, "pan: fails the Luhn check"),
        ("visa-country-zz", PayloadError.invalidCountry, "country: \"ZZ\" is not an ISO 3166-1 alpha-2 country code"),
        ("visa-as-amex", PayloadError.brandMismatch, "pan: an AMEX PAN starts with 34 or 37"),
    ])
    func theShippedMalformedCardsBreakTheirRule(name: String, error: PayloadError, problem: String) {
        let card = Fixtures.card(name)
        #expect(card.has(.malformed))
        #expect(card.cardData.problem?.error == error)
        #expect(card.cardData.problem?.description == problem)
    }

    /// Without `--card`, a region's terminal gets a card of its own country: no DCC offer.
    @Test(arguments: [
        ("BE", "visa", "mc-pin"), ("AU", "eftpos-au", "mc-pin-au"), ("DE", "visa-de", "mc-pin-de"),
        ("AT", "visa-at", "mc-pin-at"), ("CZ", "visa-cz", "mc-pin-cz"), ("FR", "visa-fr", "mc-pin-fr"),
        ("NL", "visa-nl", "mc-pin-nl"), ("IT", "visa-it", "mc-pin-it"), ("PL", "visa-pl", "mc-pin-pl"),
    ])
    func theDefaultCardIsTheCountrysOwn(country: String, card: String, pinCard: String) {
        #expect(Fixtures.catalogue.defaultCard(forCountry: country)?.name == card)
        #expect(Fixtures.catalogue.defaultCard(forCountry: country, pin: true)?.name == pinCard)
        #expect(Fixtures.card(pinCard).country == country && Fixtures.card(pinCard).pin == "1234")
    }

    /// Every region of environments.json has a domestic card and a domestic PIN card.
    @Test func everyRegionOfEnvironmentsJSONHasADomesticCardAndPINCard() throws {
        struct File: Decodable {
            struct Region: Decodable { let id: String; let country: String }
            let regions: [Region]
        }
        let file = try JSONDecoder().decode(
            File.self, from: Data(contentsOf: Paths.sandboxData.appendingPathComponent("environments.json")))
        #expect(file.regions.count >= 9)
        for region in file.regions {
            #expect(Fixtures.catalogue.defaultCard(forCountry: region.country)?.country == region.country, "\(region.id)")
            #expect(Fixtures.catalogue.defaultCard(forCountry: region.country, pin: true)?.country == region.country, "\(region.id)")
        }
    }

    @Test func aCountryWithoutCardsFallsBackToTheFirstUnflaggedCard() throws {
        let flagged = Self.good.replacingOccurrences(of: #""flags": []"#, with: #""flags": ["decline"]"#)
        let other = Self.good.replacingOccurrences(of: #""name": "x""#, with: #""name": "y""#)
            .replacingOccurrences(of: "4761730000000011", with: "4000002760000008")
            .replacingOccurrences(of: #""BE""#, with: #""DE""#)
        let catalogue = try CardCatalogue(json: Data(#"{"cards": [\#(flagged), \#(other)]}"#.utf8))
        #expect(catalogue.defaultCard(forCountry: "BE")?.name == "y", "the flagged BE card is never a default")
        #expect(catalogue.defaultCard(forCountry: "JP")?.name == "y")
        #expect(catalogue.defaultCard(forCountry: "BE", pin: true) == nil)
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
         "cards.json: cards[0].country: \"Belgium\" is not an ISO 3166-1 alpha-2 country code"),
        (file(good, replacing: #""country": "BE""#, with: #""country": "ZZ""#),
         "cards.json: cards[0].country: \"ZZ\" is not an ISO 3166-1 alpha-2 country code"),
        (file(good, replacing: #""flags": []"#, with: #""flags": ["stolen"]"#),
         "cards.json: cards[0].flags[0]: must be \"expired\", \"decline\" or \"malformed\""),
        (file(good, replacing: #""flags": []"#, with: #""flags": ["malformed"]"#),
         "cards.json: cards[0].flags: lists \"malformed\", but the card breaks no rule of a card read"),
        (file(good, replacing: #""flags": []"#, with: #""flags": ["malformed"], "pin": "1234""#)
            .replacingOccurrences(of: #""pin": null, "#, with: "").replacingOccurrences(of: "0011", with: "0012"),
         "cards.json: cards[0].pin: must be null for a card with cvm \"none\""),
        (file(good, replacing: #""flags": []"#, with: #""flags": [], "cvv": "123""#), "cards.json: cards[0].cvv: unknown field"),
        (file(good, replacing: #", "aid": "A0000000031010""#, with: ""), "cards.json: cards[0].aid: missing"),
        (file(good, replacing: #""brand": "VISA""#, with: #""brand": "AMEX""#), "cards.json: cards[0].pan: an AMEX PAN starts with 34 or 37"),
        (#"{"cards": [\#(good), \#(good)]}"#, "cards.json: cards[1].name: \"x\" is already used by cards[0]"),
        (file(good, replacing: #""flags": []"#, with: #""flags": [], "applications": [{"aid": "A0000000031010", "applicationLabel": "VISA DEBIT"}]"#),
         "cards.json: cards[0].applications: lists at least two applications, or is left out"),
        (file(good, replacing: #""flags": []"#, with: #""flags": [], "applications": [{"aid": "A0000000032010", "applicationLabel": "ELECTRON"}, {"aid": "A0000000031010", "applicationLabel": "VISA DEBIT"}]"#),
         "cards.json: cards[0].applications: must start with the card's own aid and applicationLabel"),
        (file(good, replacing: #""flags": []"#, with: #""flags": [], "applications": [{"aid": "A0000000031010", "applicationLabel": "VISA DEBIT"}, {"aid": "A0000000041010", "applicationLabel": "MASTERCARD"}]"#),
         "cards.json: cards[0].applications[1].aid: must start with VISA's RID A000000003"),
        (file(good, replacing: #""flags": []"#, with: #""flags": [], "applications": [{"aid": "A0000000031010"}]"#),
         "cards.json: cards[0].applications[0]: must be {\"aid\", \"applicationLabel\"} strings"),
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

    /// A card flagged `malformed` may break the rules of a card read (not the file's own).
    @Test func aMalformedCardLoadsWithItsBrokenData() throws {
        let json = Self.file(Self.good, replacing: #""flags": []"#, with: #""flags": ["malformed"]"#)
            .replacingOccurrences(of: "0011", with: "0012")
        let catalogue = try CardCatalogue(json: Data(json.utf8))
        #expect(catalogue.card(named: "x")?.pan == "4761730000000012")
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
