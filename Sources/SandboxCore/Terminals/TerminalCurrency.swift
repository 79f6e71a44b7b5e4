import FastJSON

/// The seed's `TerminalInfo.currency`: a currency as the SDK describes it.
///
/// `unitLength` is undocumented beyond "the length of the currency unit"; the sandbox gives
/// the number of minor-unit digits (the ISO 4217 exponent, 2 for EUR), the only length an
/// amount in minor units has. `isoCode` is the ISO 4217 numeric code.
///
/// ```json
/// { "code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2 }
/// ```
public struct TerminalCurrency: Codable, Sendable, Equatable {
    /// ISO 4217 alphabetic code, e.g. `EUR`.
    public var code: String
    /// ISO 4217 English name, e.g. `Euro`.
    public var name: String
    /// Digits of the minor unit (equal to ``exponent`` here).
    public var unitLength: Int?
    /// ISO 4217 numeric code, e.g. 978.
    public var isoCode: Int?
    /// Minor-unit exponent: amount / 10^exponent is the value in major units.
    public var exponent: Int?

    public init(code: String, name: String, unitLength: Int?, isoCode: Int?, exponent: Int?) {
        self.code = code
        self.name = name
        self.unitLength = unitLength
        self.isoCode = isoCode
        self.exponent = exponent
    }

    /// The wire form of a known currency.
    public init(_ currency: Currency) {
        self.init(
            code: currency.code, name: currency.name, unitLength: currency.exponent,
            isoCode: currency.numericCode, exponent: currency.exponent)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case code, name, unitLength, isoCode, exponent
    }

    /// Writes every field, `null` included, so clients see the seed model's full shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(name, forKey: .name)
        try container.encode(unitLength, forKey: .unitLength)
        try container.encode(isoCode, forKey: .isoCode)
        try container.encode(exponent, forKey: .exponent)
    }
}

extension TerminalCurrency: SortedJSONWritable {
    private static let memberNames = JSONMemberNames<CodingKeys>()

    /// What ``encode(to:)`` gives through the wire encoder, written directly.
    public func write(to writer: inout SortedJSONWriter) throws {
        writer.object { w in
            for (key, written) in Self.memberNames.sorted {
                w.member(written: written)
                switch key {
                case .code: w.string(code)
                case .name: w.string(name)
                case .unitLength: w.integer(unitLength)
                case .isoCode: w.integer(isoCode)
                case .exponent: w.integer(exponent)
                }
            }
        }
    }
}
