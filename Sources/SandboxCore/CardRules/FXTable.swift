import Foundation

/// The exchange rates of `sandbox-data/fx.json`, which price Dynamic Currency Conversion.
///
/// `rates` goes from a terminal's currency to a card's currency (card units per terminal
/// unit), `countries` from a card's issuing country to its currency. A card is offered DCC when
/// its country's currency differs from the terminal's and the table has a rate between them.
/// All arithmetic is in `Decimal`, so quotes are exact to the minor unit.
///
/// ```swift
/// let fx = try FXTable.load(contentsOf: data.appending(path: "fx.json"))
/// let euro = Currency(code: "EUR")!
/// fx.quote(amount: 1000, from: euro, cardCountry: "US")?.amount   // 1122 (11.22 USD)
/// fx.quote(amount: 1000, from: euro, cardCountry: "JP")?.amount   // 1680 (JPY has no minor unit)
/// fx.quote(amount: 1000, from: euro, cardCountry: "BE")           // nil: a euro card
/// ```
public struct FXTable: Sendable, Equatable {
    /// The markup over the base rate, in percent, from 0 to 20.
    public var markupPercent: Decimal
    /// Whether quotes state the markup over the ECB reference rate (`dccEcbIndicator`).
    public var ecbIndicator: Bool
    /// Terminal currency → card currency → card units per terminal unit (always above 0).
    public var rates: [Currency: [Currency: Decimal]]
    /// ISO 3166-1 alpha-2 issuing country → the currency its cards bill in.
    public var countries: [String: Currency]

    /// The file the table lives in, inside the data directory.
    public static let fileName = "fx.json"

    /// The markups the loader accepts, in percent.
    public static let markupRange: ClosedRange<Decimal> = 0...20

    public init(
        markupPercent: Decimal, ecbIndicator: Bool, rates: [Currency: [Currency: Decimal]], countries: [String: Currency]
    ) {
        self.markupPercent = markupPercent
        self.ecbIndicator = ecbIndicator
        self.rates = rates
        self.countries = countries
    }

    /// The currency a card issued in `country` bills in, or nil when the table does not know it.
    public func currency(ofCardCountry country: String) -> Currency? {
        countries[country]
    }

    /// Prices a DCC offer for a card sale.
    ///
    /// The amount moves from the terminal currency's exponent to the card currency's, so 1000
    /// euro cents become yen with exponent 0 and dinar with exponent 3.
    ///
    /// - Parameters:
    ///   - amount: the sale in minor units of `terminalCurrency`, tip included; above 0.
    ///   - terminalCurrency: the terminal's currency.
    ///   - cardCountry: the card's issuing country (ISO 3166-1 alpha-2, upper case).
    /// - Returns: the quote, or nil when the amount is not positive, the country is unknown, the
    ///   card bills in the terminal's currency, the table has no rate for the pair, or the
    ///   converted amount does not fit an `Int`.
    public func quote(amount: Int, from terminalCurrency: Currency, cardCountry: String) -> DCCQuote? {
        guard amount > 0, let cardCurrency = countries[cardCountry], cardCurrency != terminalCurrency,
              let rate = rates[terminalCurrency]?[cardCurrency]
        else { return nil }
        let scale = Decimal(sign: .plus, exponent: cardCurrency.exponent - terminalCurrency.exponent - 2, significand: 1)
        var exact = Decimal(amount) * rate * (100 + markupPercent) * scale
        var rounded = Decimal()
        // `.plain` rounds halves away from zero: half up for the positive amounts quoted here.
        NSDecimalRound(&rounded, &exact, 0, .plain)
        guard let converted = Int(rounded.description), converted > 0 else { return nil }
        return DCCQuote(
            amount: converted, currency: cardCurrency, exchangeRate: rate, markupPercent: markupPercent,
            ecbIndicator: ecbIndicator)
    }

    /// Reads and checks a table file.
    ///
    /// - Parameter url: a file URL, normally `sandbox-data/fx.json`.
    /// - Throws: ``CatalogueError`` naming the file by its last path component: `.unreadable`
    ///   when the file cannot be read, otherwise as ``decode(_:file:)``.
    public static func load(contentsOf url: URL) throws(CatalogueError) -> FXTable {
        try decode(DataFile.read(url), file: url.lastPathComponent)
    }

    /// Checks a table document.
    ///
    /// - Throws: ``CatalogueError`` for the first problem: not JSON, a missing, mistyped or
    ///   unknown field, a markup outside 0…20, a currency `Currency` does not know, a rate from
    ///   a currency to itself or not above 0, or a country that is not an ISO 3166-1 alpha-2 code.
    public static func decode(_ data: Data, file: String) throws(CatalogueError) -> FXTable {
        try DataFile.decode(FXTable.self, from: data, file: file)
    }
}

extension FXTable: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case markupPercent, ecbIndicator, rates, countries
    }

    /// Checks keys in name order, so the first problem reported does not depend on the decoder.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        markupPercent = try container.decode(Decimal.self, forKey: .markupPercent)
        guard Self.markupRange.contains(markupPercent) else {
            throw DecodingError.dataCorruptedError(
                forKey: .markupPercent, in: container, debugDescription: "must be a percentage from 0 to 20")
        }
        ecbIndicator = try container.decode(Bool.self, forKey: .ecbIndicator)

        let byTerminal = try container.objectDecoder(forKey: .rates).container(keyedBy: FieldKey.self)
        rates = [:]
        for terminalKey in byTerminal.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            let terminal = try Self.currency(terminalKey, in: byTerminal.codingPath)
            let byCard = try byTerminal.objectDecoder(forKey: terminalKey).container(keyedBy: FieldKey.self)
            var row: [Currency: Decimal] = [:]
            for cardKey in byCard.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                let card = try Self.currency(cardKey, in: byCard.codingPath)
                guard card != terminal else {
                    throw DecodingError.invalid(
                        "a currency does not convert to itself", at: byCard.codingPath + [cardKey])
                }
                let rate = try byCard.decode(Decimal.self, forKey: cardKey)
                guard rate > 0 else {
                    throw DecodingError.invalid(
                        "must be a rate above 0 (\(card.code) per \(terminal.code))", at: byCard.codingPath + [cardKey])
                }
                row[card] = rate
            }
            rates[terminal] = row
        }

        let byCountry = try container.objectDecoder(forKey: .countries).container(keyedBy: FieldKey.self)
        countries = [:]
        for countryKey in byCountry.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            guard CountryCode.isAssigned(countryKey.stringValue) else {
                throw DecodingError.invalid(
                    "\"\(countryKey.stringValue)\" is not an ISO 3166-1 alpha-2 country code",
                    at: byCountry.codingPath + [countryKey])
            }
            let code = try byCountry.decode(String.self, forKey: countryKey)
            guard let currency = Currency(code: code) else {
                throw DecodingError.invalid(
                    "\"\(code)\" is not an ISO 4217 currency code", at: byCountry.codingPath + [countryKey])
            }
            countries[countryKey.stringValue] = currency
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(markupPercent, forKey: .markupPercent)
        try container.encode(ecbIndicator, forKey: .ecbIndicator)
        var byTerminal = container.nestedContainer(keyedBy: FieldKey.self, forKey: .rates)
        for (terminal, row) in rates {
            var byCard = byTerminal.nestedContainer(keyedBy: FieldKey.self, forKey: FieldKey(stringValue: terminal.code))
            for (card, rate) in row {
                try byCard.encode(rate, forKey: FieldKey(stringValue: card.code))
            }
        }
        var byCountry = container.nestedContainer(keyedBy: FieldKey.self, forKey: .countries)
        for (country, currency) in countries {
            try byCountry.encode(currency.code, forKey: FieldKey(stringValue: country))
        }
    }

    /// The currency a key names, or the catalogue's "not an ISO 4217 currency code" at that key.
    private static func currency(_ key: FieldKey, in path: [any CodingKey]) throws -> Currency {
        guard let currency = Currency(code: key.stringValue) else {
            throw DecodingError.invalid("\"\(key.stringValue)\" is not an ISO 4217 currency code", at: path + [key])
        }
        return currency
    }
}
