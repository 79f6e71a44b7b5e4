import Foundation
import SandboxCore
import SandboxWire
import Testing
import SandboxTestSupport

@Suite struct FXTableTests {
    static let shippedFile = Paths.sandboxData.appendingPathComponent(FXTable.fileName)
    static func shipped() throws -> FXTable { try FXTable.load(contentsOf: shippedFile) }
    static func currency(_ code: String) throws -> Currency { try #require(Currency(code: code)) }

    @Test func theShippedTableLoads() throws {
        let fx = try Self.shipped()
        #expect(fx.markupPercent == 3.5)
        #expect(fx.ecbIndicator)
        #expect(fx.rates[try Self.currency("EUR")]?[try Self.currency("USD")] == Decimal(string: "1.0842"))
        #expect(fx.currency(ofCardCountry: "JP")?.code == "JPY")
        #expect(fx.currency(ofCardCountry: "BE")?.code == "EUR")
    }

    /// Every region that offers DCC can quote every card country the table knows.
    @Test func everyDCCRegionHasARateToEveryCardCountrysCurrency() throws {
        let fx = try Self.shipped()
        let environments = try EnvironmentCatalogue.load(contentsOf: Paths.sandboxData.appendingPathComponent("environments.json"))
        let dccCurrencies = Set(environments.regions.filter(\.features.dcc).map(\.currency))
        #expect(Set(dccCurrencies.map(\.code)) == ["EUR", "AUD", "CZK", "PLN"])
        for terminal in dccCurrencies {
            for (country, card) in fx.countries where card != terminal {
                #expect(fx.quote(amount: 1000, from: terminal, cardCountry: country) != nil, "\(terminal) → \(country)")
            }
        }
    }

    struct Quote: Sendable, CustomTestStringConvertible {
        let amount: Int
        let from: String
        let country: String
        let expectedAmount: Int
        let expectedCurrency: String
        let expectedRate: String
        var testDescription: String { "\(amount) \(from) → \(country): \(expectedAmount) \(expectedCurrency)" }
    }

    // Worked by hand: amount × rate × 1.035, moved between exponents, rounded half up.
    static let quotes: [Quote] = [
        // 10.00 EUR × 1.0842 × 1.035 = 11.2214700 USD → 1122 cents.
        .init(amount: 1000, from: "EUR", country: "US", expectedAmount: 1122, expectedCurrency: "USD", expectedRate: "1.0842"),
        // 5000.00 EUR × 1.0842 × 1.035 = 5610.735 USD → exactly half a cent, up: 561074.
        .init(amount: 500_000, from: "EUR", country: "US", expectedAmount: 561_074, expectedCurrency: "USD", expectedRate: "1.0842"),
        // 10.00 EUR × 162.31 × 1.035 = 1679.9085 JPY, exponent 0 → 1680 yen.
        .init(amount: 1000, from: "EUR", country: "JP", expectedAmount: 1680, expectedCurrency: "JPY", expectedRate: "162.31"),
        // 10000.00 EUR → 1679908.5 JPY: half up gives …909 where banker's rounding gives …908.
        .init(amount: 1_000_000, from: "EUR", country: "JP", expectedAmount: 1_679_909, expectedCurrency: "JPY", expectedRate: "162.31"),
        // 0.01 EUR → 1.6799085 JPY → 2 yen.
        .init(amount: 1, from: "EUR", country: "JP", expectedAmount: 2, expectedCurrency: "JPY", expectedRate: "162.31"),
        // 10000.00 EUR × 0.8571 × 1.035 = 8870.985 GBP → half a penny, up: 887099.
        .init(amount: 1_000_000, from: "EUR", country: "GB", expectedAmount: 887_099, expectedCurrency: "GBP", expectedRate: "0.8571"),
        // 50.00 PLN × 0.232019 × 1.035 = 12.006983250 EUR → 1201 cents.
        .init(amount: 5000, from: "PLN", country: "DE", expectedAmount: 1201, expectedCurrency: "EUR", expectedRate: "0.232019"),
        // 25.99 AUD × 0.518731 × 1.035 = 13.95368234415 GBP → 1395 pence.
        .init(amount: 2599, from: "AUD", country: "GB", expectedAmount: 1395, expectedCurrency: "GBP", expectedRate: "0.518731"),
        // 250000.00 CZK × 0.0430067 × 1.035 = 11127.9836250 USD → 1112798 cents.
        .init(amount: 25_000_000, from: "CZK", country: "US", expectedAmount: 1_112_798, expectedCurrency: "USD", expectedRate: "0.0430067"),
    ]

    @Test(arguments: quotes)
    func quotesAreExactToTheMinorUnit(_ expected: Quote) throws {
        let quote = try #require(
            try Self.shipped().quote(amount: expected.amount, from: Self.currency(expected.from), cardCountry: expected.country))
        #expect(quote.amount == expected.expectedAmount)
        #expect(quote.currency.code == expected.expectedCurrency)
        #expect(quote.exchangeRate == Decimal(string: expected.expectedRate))
        #expect(quote.markupPercent == Decimal(string: "3.5"))
        #expect(quote.ecbIndicator)
    }

    @Test func theWireCarriesTheBaseRateAndTheMarkupPercent() throws {
        let quote = try #require(try Self.shipped().quote(amount: 1000, from: Self.currency("EUR"), cardCountry: "US"))
        #expect(quote.exchangeRateValue == 1.0842)
        #expect(quote.markupPercentValue == 3.5)
        #expect(quote.rateIncludingMarkup == Decimal(string: "1.122147"))

        var detail = TransactionDetail(
            transactionId: "t1", transactionStatus: .DCC_REQUIRED, transactionType: .AUTH, transactionAmount: 1000,
            transactionDate: Date(timeIntervalSince1970: 0), merchantId: "EU-M01", terminalId: "EU-T0101",
            cancellable: false, authId: "", cardNumber: "476173******0011", paymentMethod: .CARD)
        detail.apply(quote)
        #expect(detail.dccAmount == 1122)
        #expect(detail.dccCurrency == TerminalCurrency(code: "USD", name: "US Dollar", unitLength: 2, isoCode: 840, exponent: 2))
        #expect(detail.dccExchangeRate == 1.0842)
        #expect(detail.dccMarkup == 3.5)
        #expect(detail.dccEcbIndicator == true)
    }

    @Test func noQuoteWhenTheCardPaysInTheTerminalsCurrency() throws {
        let fx = try Self.shipped()
        #expect(fx.quote(amount: 1000, from: try Self.currency("EUR"), cardCountry: "BE") == nil)
        #expect(fx.quote(amount: 1000, from: try Self.currency("EUR"), cardCountry: "IT") == nil)
        #expect(fx.quote(amount: 1000, from: try Self.currency("PLN"), cardCountry: "PL") == nil)
        #expect(fx.quote(amount: 1000, from: try Self.currency("AUD"), cardCountry: "AU") == nil)
    }

    @Test func noQuoteWithoutACountryARateOrAnAmount() throws {
        let fx = try Self.shipped()
        #expect(fx.quote(amount: 1000, from: try Self.currency("EUR"), cardCountry: "ZZ") == nil)
        #expect(fx.quote(amount: 1000, from: try Self.currency("USD"), cardCountry: "BE") == nil)
        #expect(fx.quote(amount: 0, from: try Self.currency("EUR"), cardCountry: "US") == nil)
        #expect(fx.quote(amount: -1000, from: try Self.currency("EUR"), cardCountry: "US") == nil)
        // Int.max euro cents are about 3.8e21 forint fillér: more than an Int holds.
        #expect(fx.quote(amount: Int.max, from: try Self.currency("EUR"), cardCountry: "HU") == nil)
    }

    @Test func aThreeDecimalCurrencyGetsThreeDigits() throws {
        let document = #"{"markupPercent": 0, "ecbIndicator": false, "rates": {"EUR": {"KWD": 0.3321}}, "countries": {"KW": "KWD"}}"#
        let fx = try FXTable.decode(Data(document.utf8), file: "fx.json")
        // 10.00 EUR × 0.3321 = 3.321 KWD = 3321 fils.
        let quote = try #require(fx.quote(amount: 1000, from: try Self.currency("EUR"), cardCountry: "KW"))
        #expect(quote.amount == 3321)
        #expect(quote.ecbIndicator == false)
    }

    static let minimal = #"""
    {
      "markupPercent": 3.5,
      "ecbIndicator": true,
      "rates": {
        "EUR": { "USD": 1.0842, "JPY": 162.31 },
        "PLN": { "EUR": 0.232019 }
      },
      "countries": { "US": "USD", "JP": "JPY", "DE": "EUR" }
    }
    """#

    static let broken: [BrokenDocument] = [
        .init(document: "[]", "fx.json: (root): expected an object"),
        .init(#""markupPercent": 3.5,"#, "", "fx.json: markupPercent: missing"),
        .init(#""markupPercent": 3.5"#, #""markupPercent": 25"#, "fx.json: markupPercent: must be a percentage from 0 to 20"),
        .init(#""markupPercent": 3.5"#, #""markupPercent": -1"#, "fx.json: markupPercent: must be a percentage from 0 to 20"),
        .init(#""markupPercent": 3.5"#, #""markupPercent": "3.5""#, "fx.json: markupPercent: expected a number"),
        .init(#""ecbIndicator": true"#, #""ecbIndicator": "yes""#, "fx.json: ecbIndicator: expected a boolean"),
        .init(#""ecbIndicator": true"#, #""ecbIndicator": true, "markup": 3"#,
              "fx.json: markup: unknown field (expected one of markupPercent, ecbIndicator, rates, countries)"),
        .init(#""EUR": { "USD""#, #""EURO": { "USD""#, #"fx.json: rates.EURO: "EURO" is not an ISO 4217 currency code"#),
        .init(#""JPY": 162.31"#, #""YEN": 162.31"#, #"fx.json: rates.EUR.YEN: "YEN" is not an ISO 4217 currency code"#),
        .init(#""JPY": 162.31"#, #""JPY": 0"#, "fx.json: rates.EUR.JPY: must be a rate above 0 (JPY per EUR)"),
        .init(#""JPY": 162.31"#, #""JPY": -162.31"#, "fx.json: rates.EUR.JPY: must be a rate above 0 (JPY per EUR)"),
        .init(#""JPY": 162.31"#, #""JPY": "162.31""#, "fx.json: rates.EUR.JPY: expected a number"),
        .init(#""JPY": 162.31"#, #""EUR": 1"#, "fx.json: rates.EUR.EUR: a currency does not convert to itself"),
        .init(#""PLN": { "EUR": 0.232019 }"#, #""PLN": [0.232019]"#, "fx.json: rates.PLN: expected an object"),
        .init(#""PLN": { "EUR": 0.232019 }"#, #""PLN": null"#, "fx.json: rates.PLN: expected an object, found null"),
        .init(#""DE": "EUR""#, #""EU": "EUR""#, #"fx.json: countries.EU: "EU" is not an ISO 3166-1 alpha-2 country code"#),
        .init(#""DE": "EUR""#, #""de": "EUR""#, #"fx.json: countries.de: "de" is not an ISO 3166-1 alpha-2 country code"#),
        .init(#""JP": "JPY""#, #""JP": "YEN""#, #"fx.json: countries.JP: "YEN" is not an ISO 4217 currency code"#),
        .init(#""JP": "JPY""#, #""JP": 392"#, "fx.json: countries.JP: expected a string"),
        .init(#""ecbIndicator": true"#, #""ecbIndicator": tru"#, "fx.json: (root): not valid JSON: invalid value at line 3, column 22"),
    ]

    @Test func theMinimalDocumentIsValid() throws {
        let fx = try FXTable.decode(Data(Self.minimal.utf8), file: "fx.json")
        #expect(fx.rates.count == 2)
        #expect(fx.countries.count == 3)
    }

    @Test(arguments: broken)
    func aBrokenTableIsRefusedWithOneExactLine(_ broken: BrokenDocument) throws {
        let data = try broken.apply(to: Self.minimal)
        let error = #expect(throws: CatalogueError.self) {
            try FXTable.decode(data, file: "fx.json")
        }
        #expect(error?.description == broken.message)
    }

    @Test func aMissingFileIsUnreadable() {
        let url = URL(fileURLWithPath: "/nonexistent/fx.json")
        let error = #expect(throws: CatalogueError.self) { try FXTable.load(contentsOf: url) }
        #expect(error?.code == .unreadable)
    }
}
