import SandboxWire

extension TerminalCurrency {
    /// The wire form of a known currency: its ISO 4217 code, name, numeric code and exponent
    /// (`unitLength` is the exponent too).
    public init(_ currency: Currency) {
        self.init(
            code: currency.code, name: currency.name, unitLength: currency.exponent,
            isoCode: currency.numericCode, exponent: currency.exponent)
    }
}
