import SandboxWire

/// A currency as the terminal and its transactions describe it (seed "Currency"): the wire's
/// ``TerminalCurrency``, under the seed's name (the hosts keep `Currency` for their ISO 4217 table).
///
/// ```json
/// {"code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2}
/// ```
public typealias Currency = TerminalCurrency
