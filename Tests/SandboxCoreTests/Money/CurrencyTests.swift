import Foundation
import SandboxCore
import Testing

/// ISO 4217 codes and the minor-unit exponents amounts are counted in.
@Suite struct CurrencyTests {
    @Test(arguments: [
        ("EUR", 2, 978), ("AUD", 2, 36), ("CZK", 2, 203), ("PLN", 2, 985),
        ("USD", 2, 840), ("GBP", 2, 826), ("CHF", 2, 756), ("SEK", 2, 752), ("NOK", 2, 578),
        ("DKK", 2, 208), ("HUF", 2, 348), ("BRL", 2, 986), ("ARS", 2, 32),
        ("JPY", 0, 392), ("KRW", 0, 410), ("ISK", 0, 352), ("CLP", 0, 152),
        ("KWD", 3, 414), ("BHD", 3, 48),
    ])
    func knowsTheExponent(code: String, exponent: Int, numericCode: Int) throws {
        let currency = try #require(Currency(code: code))
        #expect(currency.code == code)
        #expect(currency.exponent == exponent)
        #expect(currency.numericCode == numericCode)
    }

    @Test func convertsBetweenMinorAndMajorUnits() throws {
        #expect(try #require(Currency(code: "EUR")).minorUnitsPerMajorUnit == 100)
        #expect(try #require(Currency(code: "JPY")).minorUnitsPerMajorUnit == 1)
        #expect(try #require(Currency(code: "KWD")).minorUnitsPerMajorUnit == 1000)
    }

    @Test(arguments: ["EURO", "eur", "", "XXX", "E"])
    func refusesWhatIsNotAKnownCode(code: String) {
        #expect(Currency(code: code) == nil)
    }

    @Test func tableIsConsistent() {
        let all = Currency.all
        #expect(all.count >= 50)
        #expect(all.map(\.code) == all.map(\.code).sorted())
        #expect(Set(all.map(\.numericCode)).count == all.count)
        #expect(all.allSatisfy { $0.code.count == 3 && $0.code.allSatisfy { $0.isASCII && $0.isUppercase } })
        #expect(all.allSatisfy { (0...3).contains($0.exponent) && !$0.name.isEmpty })
    }

    @Test func codesAsABareString() throws {
        let data = try JSONEncoder().encode([Currency(code: "CZK")])
        #expect(String(decoding: data, as: UTF8.self) == #"["CZK"]"#)
        #expect(try JSONDecoder().decode([Currency].self, from: data) == [Currency(code: "CZK")])
    }

    @Test func refusesAnUnknownCodeWhenDecoding() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Currency].self, from: Data(#"["EURO"]"#.utf8))
        }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription == #""EURO" is not an ISO 4217 currency code"#)
    }
}
