/// A currency by its ISO 4217 alphabetic code, with the minor-unit exponent that amounts use.
///
/// Every amount in the sandbox is an integer in minor units, so the exponent is what turns
/// `1191` into 11.91 EUR and `1191` into 1191 JPY. The table below is the ISO 4217 minor
/// unit (not a locale's display habit: ISO gives HUF 2 decimals even though cash has none).
///
/// ```swift
/// let euro = Currency(code: "EUR")!      // exponent 2, numeric code 978
/// Currency(code: "eur")                  // nil: codes are upper case
/// Currency(code: "EURO")                 // nil: not an ISO 4217 code
/// ```
///
/// Its `Codable` form is the bare code (`"EUR"`); decoding an unknown code fails with
/// `DecodingError.dataCorrupted` whose description is `"XYZ" is not an ISO 4217 currency code`.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The ISO 4217 alphabetic code, e.g. `EUR`.
    public let code: String
    /// The ISO 4217 numeric code, e.g. 978 for EUR (the seed's `Currency.isoCode`).
    public let numericCode: Int
    /// Digits after the decimal point in an amount's minor units, e.g. 2 for EUR, 0 for JPY.
    public let exponent: Int
    /// The English name ISO 4217 gives the currency.
    public let name: String

    /// Looks a currency up in the table of known ISO 4217 codes.
    ///
    /// - Parameter code: the alphabetic code, exactly as ISO writes it (upper case).
    /// - Returns: nil when `code` is not a currency this table knows.
    public init?(code: String) {
        guard let entry = Currency.table[code] else { return nil }
        self = entry
    }

    private init(_ code: String, _ numericCode: Int, _ exponent: Int, _ name: String) {
        self.code = code
        self.numericCode = numericCode
        self.exponent = exponent
        self.name = name
    }

    /// Every currency the sandbox knows, sorted by code.
    public static var all: [Currency] { table.values.sorted { $0.code < $1.code } }

    /// How many minor units make one major unit: 100 for EUR, 1 for JPY, 1000 for KWD.
    public var minorUnitsPerMajorUnit: Int {
        (0..<exponent).reduce(1) { product, _ in product * 10 }
    }

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        guard let currency = Currency(code: code) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(code)\" is not an ISO 4217 currency code")
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    // The regions' currencies first, then the ones testers and peers' SDKs commonly use.
    private static let table: [String: Currency] = Dictionary(uniqueKeysWithValues: [
        Currency("EUR", 978, 2, "Euro"),
        Currency("AUD", 36, 2, "Australian Dollar"),
        Currency("CZK", 203, 2, "Czech Koruna"),
        Currency("PLN", 985, 2, "Zloty"),
        Currency("USD", 840, 2, "US Dollar"),
        Currency("GBP", 826, 2, "Pound Sterling"),
        Currency("CHF", 756, 2, "Swiss Franc"),
        Currency("SEK", 752, 2, "Swedish Krona"),
        Currency("NOK", 578, 2, "Norwegian Krone"),
        Currency("DKK", 208, 2, "Danish Krone"),
        Currency("ISK", 352, 0, "Iceland Krona"),
        Currency("HUF", 348, 2, "Forint"),
        Currency("RON", 946, 2, "Romanian Leu"),
        Currency("BGN", 975, 2, "Bulgarian Lev"),
        Currency("RSD", 941, 2, "Serbian Dinar"),
        Currency("BAM", 977, 2, "Convertible Mark"),
        Currency("MKD", 807, 2, "Denar"),
        Currency("ALL", 8, 2, "Lek"),
        Currency("MDL", 498, 2, "Moldovan Leu"),
        Currency("UAH", 980, 2, "Hryvnia"),
        Currency("TRY", 949, 2, "Turkish Lira"),
        Currency("GEL", 981, 2, "Lari"),
        Currency("ILS", 376, 2, "New Israeli Sheqel"),
        Currency("AED", 784, 2, "UAE Dirham"),
        Currency("SAR", 682, 2, "Saudi Riyal"),
        Currency("QAR", 634, 2, "Qatari Rial"),
        Currency("BHD", 48, 3, "Bahraini Dinar"),
        Currency("KWD", 414, 3, "Kuwaiti Dinar"),
        Currency("OMR", 512, 3, "Rial Omani"),
        Currency("JOD", 400, 3, "Jordanian Dinar"),
        Currency("TND", 788, 3, "Tunisian Dinar"),
        Currency("MAD", 504, 2, "Moroccan Dirham"),
        Currency("EGP", 818, 2, "Egyptian Pound"),
        Currency("ZAR", 710, 2, "Rand"),
        Currency("KES", 404, 2, "Kenyan Shilling"),
        Currency("NGN", 566, 2, "Naira"),
        Currency("XOF", 952, 0, "CFA Franc BCEAO"),
        Currency("XAF", 950, 0, "CFA Franc BEAC"),
        Currency("NZD", 554, 2, "New Zealand Dollar"),
        Currency("CAD", 124, 2, "Canadian Dollar"),
        Currency("MXN", 484, 2, "Mexican Peso"),
        Currency("BRL", 986, 2, "Brazilian Real"),
        Currency("ARS", 32, 2, "Argentine Peso"),
        Currency("CLP", 152, 0, "Chilean Peso"),
        Currency("COP", 170, 2, "Colombian Peso"),
        Currency("PEN", 604, 2, "Sol"),
        Currency("UYU", 858, 2, "Peso Uruguayo"),
        Currency("PYG", 600, 0, "Guarani"),
        Currency("JPY", 392, 0, "Yen"),
        Currency("KRW", 410, 0, "Won"),
        Currency("CNY", 156, 2, "Yuan Renminbi"),
        Currency("HKD", 344, 2, "Hong Kong Dollar"),
        Currency("TWD", 901, 2, "New Taiwan Dollar"),
        Currency("SGD", 702, 2, "Singapore Dollar"),
        Currency("MYR", 458, 2, "Malaysian Ringgit"),
        Currency("THB", 764, 2, "Baht"),
        Currency("IDR", 360, 2, "Rupiah"),
        Currency("PHP", 608, 2, "Philippine Peso"),
        Currency("VND", 704, 0, "Dong"),
        Currency("INR", 356, 2, "Indian Rupee"),
    ].map { ($0.code, $0) })
}
