import FastJSON

/// The seed's `Currency` (`TerminalInfo.currency`, `TransactionDetail.currency`): a currency as
/// the SDK describes it. The SDK names it `Currency` (a type alias); the hosts keep that name
/// for their ISO 4217 table, so the wire type is `TerminalCurrency`.
///
/// `unitLength` is undocumented beyond "the length of the currency unit"; the sandbox gives
/// the number of minor-unit digits (the ISO 4217 exponent, 2 for EUR), the only length an
/// amount in minor units has. `isoCode` is the ISO 4217 numeric code.
///
/// ```json
/// { "code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2 }
/// ```
public struct TerminalCurrency: Codable, Sendable, Equatable, Hashable {
    /// ISO 4217 alphabetic code, e.g. `EUR`.
    public var code: String
    /// ISO 4217 English name, e.g. `Euro`.
    public var name: String
    /// Digits of the minor unit (equal to ``exponent`` here).
    public var unitLength: Int?
    /// ISO 4217 numeric code, e.g. 978.
    public var isoCode: Int?
    /// Minor-unit exponent: amounts are integers in 10^-exponent units.
    public var exponent: Int?

    public init(code: String, name: String, unitLength: Int? = nil, isoCode: Int? = nil, exponent: Int? = nil) {
        self.code = code
        self.name = name
        self.unitLength = unitLength
        self.isoCode = isoCode
        self.exponent = exponent
    }

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case code, name, unitLength, isoCode, exponent
    }
}

extension TerminalCurrency: JSONObjectWritable {
    public static let memberNames = JSONMemberNames<CodingKeys>()

    /// Every field, `null` included, so clients see the seed model's full shape: the one list
    /// both `encode(to:)` and `write(to:)` write.
    public func writeMember(_ key: CodingKeys, to sink: inout some JSONMemberSink) throws {
        switch key {
        case .code: try sink.string(code, for: key)
        case .name: try sink.string(name, for: key)
        case .unitLength: try sink.integer(unitLength, for: key)
        case .isoCode: try sink.integer(isoCode, for: key)
        case .exponent: try sink.integer(exponent, for: key)
        }
    }
}
