/// A currency as the terminal and its transactions describe it (seed "Currency").
///
/// ```json
/// {"code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2}
/// ```
public struct Currency: Codable, Sendable, Equatable, Hashable {
    /// ISO 4217 letters, `EUR`.
    public var code: String
    /// The full name, `Euro`.
    public var name: String
    /// The length of the minor unit.
    public var unitLength: Int?
    /// ISO 4217 number, `978`.
    public var isoCode: Int?
    /// Digits after the decimal point: amounts are integers in 10^-exponent units.
    public var exponent: Int?

    public init(code: String, name: String, unitLength: Int? = nil, isoCode: Int? = nil, exponent: Int? = nil) {
        self.code = code
        self.name = name
        self.unitLength = unitLength
        self.isoCode = isoCode
        self.exponent = exponent
    }
}
