import CardPayload
import Foundation
import HostTestSupport
import SimulatedReader
import SandboxTestSupport
import Testing

/// What the host does with the card a payload carries: a card that breaks a rule of a card read
/// gets that rule's own refusal (not "tampered"), leaves no transaction and no busy terminal; each
/// region's own cards pay without a DCC offer.
@Suite("Card payments: the card a read carries")
struct CardRefusalTests {
    /// `card` sealed for `till` as its reader would, read now on the host's clock.
    static func seal(_ card: RawCard, for till: Till) throws -> String {
        let payload = RawCardPayload(
            readId: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
            readAt: Int64(((till.clock.now().timeIntervalSince1970 + till.offset) * 1000).rounded()), card: card)
        return try PayloadSealer.seal(payload, key: till.readerKey, region: till.region, terminalId: till.id)
    }

    @Test("malformed cards: invalid_pan, invalid_card_country, brand_mismatch, unknown_brand, unknown_cvm, invalid_card_data")
    func malformedCardsAreRefusedEachWithItsOwnCode() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            // The shipped malformed cards, tapped on the reader: it seals what they say.
            for (card, code, message) in [
                ("visa-bad-luhn", "invalid_pan", "The card's PAN fails the Luhn check."),
                ("visa-country-zz", "invalid_card_country", "The card's country \"ZZ\" is not an ISO 3166-1 alpha-2 country code."),
                ("visa-as-amex", "brand_mismatch", "The card's brand AMEX does not match its PAN: an AMEX PAN starts with 34 or 37."),
            ] {
                let payload = try await till.tap(card, amount: 1250)
                let reply = await till.refused(400, code, "a sale with \(card)") { await till.sale(amount: 1250, payload: payload) }
                #expect(reply.errorMessage == message, "\(l) \(card): \(reply)")
                #expect(reply.errorField == "cardPayload", "\(l) \(card): \(reply)")
            }

            // Names the reader never writes, sealed by hand: an unknown brand or CVM is not "tampered".
            var diners = RawCard()
            diners.brand = "DINERS"
            var signature = RawCard()
            signature.cvm = "signature"
            var month13 = RawCard()
            month13.expiry = "2813"
            for (card, code, what, message) in [
                (diners, "unknown_brand", "brand DINERS", "The card's brand \"DINERS\" is not one of"),
                (signature, "unknown_cvm", "cvm signature", "The card's cvm \"signature\" is neither none nor onlinePin."),
                (month13, "invalid_card_data", "expiry 2813", "The card's expiry must be YYMM with a month 01-12."),
            ] {
                let payload = try Self.seal(card, for: till)
                let reply = await till.refused(400, code, "a sale with \(what)") { await till.sale(amount: 1250, payload: payload) }
                #expect(reply.errorMessage?.hasPrefix(message) == true, "\(l) \(what): \(reply)")
            }
            // A well-formed card sealed the same way pays: the refusals above are the card's.
            expectTransaction(
                await till.sale(amount: 1250, payload: try Self.seal(RawCard(), for: till)), 201, "CLEARED", responseCode: "00",
                "\(l) a good card sealed by hand")

            // The card step of a two-step sale refuses it the same way; the sale still waits for a card.
            let waiting = expectTransaction(await till.sale(amount: 1250), 201, "NEW", "\(l) a sale waiting for its card")
            let id = try #require(waiting.transactionId)
            let badLuhn = try await till.tap("visa-bad-luhn", amount: 1250)
            expectReply(await till.card(id, payload: badLuhn), 400, "invalid_pan", "\(l) the card step with visa-bad-luhn")
            expectTransaction(await till.details(id), 200, "NEW", "\(l) the sale still waits after the refused card")
            expectTransaction(
                await till.card(id, payload: try await till.tap("visa", amount: 1250)), 200, "CLEARED", "\(l) a good card then")
        }
    }

    @Test("each region's default card and default PIN card pay without DCC; a wrong PIN declines 55")
    func everyRegionsOwnCardsPayWithoutDCC() async throws {
        struct Environments: Decodable {
            struct Region: Decodable {
                let id: String
                let country: String
            }
            let regions: [Region]
        }
        let environments = try JSONDecoder().decode(
            Environments.self, from: Data(contentsOf: Paths.sandboxData.appendingPathComponent("environments.json")))
        let catalogue = try #require(cardCatalogue)
        try await withSandbox(regions: nil) { sandbox in
            for region in environments.regions {
                let host = try sandbox.host(region.id)
                let till = try await Till.open(
                    host, try host.terminal("without country or reference rules") { $0.permittedCountries == nil && $0.reference.pattern == nil })
                let l = till.label
                let plain = try #require(catalogue.defaultCard(forCountry: region.country), "\(l) no default card")
                let pin = try #require(catalogue.defaultCard(forCountry: region.country, pin: true), "\(l) no default PIN card")
                #expect(plain.country == region.country && pin.country == region.country, "\(l) \(plain.name), \(pin.name)")

                let sale = expectTransaction(
                    try await till.pay(plain.name, amount: 1250), 201, "CLEARED", responseCode: "00", "\(l) \(plain.name)")
                #expect(sale.string("cardType") == plain.brand.rawValue, "\(l) \(sale)")
                let pinned = expectTransaction(
                    try await till.pay(pin.name, amount: 1250), 201, "CLEARED", responseCode: "00", "\(l) \(pin.name) with its PIN")
                #expect(pinned.string("dccStatus") == nil, "\(l) a domestic card gets no DCC offer: \(pinned)")
                expectTransaction(
                    try await till.pay(pin.name, amount: 1250, pin: .wrong), 201, "DECLINED", responseCode: "55",
                    "\(l) \(pin.name) with a wrong PIN")
            }
        }
    }
}
