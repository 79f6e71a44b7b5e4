import FastJSON
import Foundation
import SandboxCore
import SandboxWire
import SandboxTestSupport
import Testing

/// SortedJSONEncoder must give the very bytes of JSONEncoder with the wire settings: every answer
/// of every host goes through it, and clients (and golden files) see no difference.
@Suite struct SortedJSONEncoderTests {
    static func foundation(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Array(try encoder.encode(value))
    }

    func expectSame(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        Self.expect(try SortedJSONEncoder.encode(value), isFoundations: try Self.foundation(value), sourceLocation: sourceLocation)
    }

    /// `actual` is JSONEncoder's `expected`, byte for byte; a failure shows both as text.
    static func expect(_ actual: [UInt8], isFoundations expected: [UInt8], sourceLocation: SourceLocation) {
        #expect(
            actual == expected,
            "\(String(decoding: actual, as: UTF8.self)) is not JSONEncoder's \(String(decoding: expected, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    static let date = Date(timeIntervalSince1970: 1_764_420_502.555)

    @Test("a transaction detail with every field, and one with only the mandatory ones")
    func transactionDetail() throws {
        let euro = TerminalCurrency(code: "EUR", name: "Euro", unitLength: 2, isoCode: 978, exponent: 2)
        let dollar = TerminalCurrency(code: "USD", name: "US Dollar", unitLength: 2, isoCode: 840, exponent: 2)
        let full = TransactionDetail(
            transactionId: "7f1c2a9e-0b1d-4c3e-8f00-123456789abc", transactionStatus: .CLEARED, transactionType: .AUTH,
            transactionAmount: 1250, tipAmount: 250, transactionDate: Self.date, merchantId: "EU-M1",
            terminalId: "EU-T1", cancellable: true, applicationLabel: "VISA DEBIT", cardType: "VISA",
            expiryDate: Self.date, authId: "123456", AID: "A0000000031010", cardNumber: "************4242",
            responseCode: "00", responseMsg: "Approved", CID: "40", applicationCryptogram: "9F26A1B2C3D4E5F6",
            externalID: "ext/1", retrievalRefNum: "012345678901", refundedTransactionId: "r-1",
            refundedDate: Self.date, refundedMaskedPan: "************4242", isReversalAvailable: false,
            paymentMethod: .CARD, refundable: true, ref1: "Ref \"one\"", ref2: "ünïcødé ✓", currency: euro,
            dccStatus: .ACCEPTED, dccAmount: 1399, dccCurrency: dollar, dccExchangeRate: 1.0834, dccMarkup: 3.5,
            dccEcbIndicator: true, transactionRetry: 2)
        try expectSame(full)
        try expectSame([full, full])
        let minimal = TransactionDetail(
            transactionId: "t", transactionStatus: .DECLINED, transactionType: .REFUND, transactionAmount: 0,
            transactionDate: Self.date, merchantId: "", terminalId: "T", cancellable: false, authId: "", cardNumber: "",
            paymentMethod: .UNKNOWN)
        try expectSame(minimal)
        try expectSame(TransactionsHistoryPage(items: [TransactionHistoryItem(full, amountRefund: 100)], page: 1, itemsPerPage: 20, total: 1))
        try expectSame(
            TransactionsStatistics(description: "daily", items: [.init(fromDate: "2026-11-29", toDate: "2026-11-30", amount: 5, count: 1)]))
    }

    struct Scalars: Encodable {
        var text: String
        var doubles: [Double]
        var floats: [Float]
        var ints: [Int]
        var int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
        var flag: Bool
        var date: Date
        var data: Data
        var url: URL
        var decimal: Decimal
        var absent: Int?
        var optionalDoubles: [Double?]
    }

    @Test("strings with every control character, quotes, slashes and non-ASCII; numbers at their edges; Date, Data, URL, Decimal")
    func scalars() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let value = Scalars(
            text: controls + "\"\\/ \u{7F} é 😀 \u{2028}\u{2029} \u{FEFF}",
            doubles: [0, -0.0, 1, 0.1, 1.5e-7, 1e-5, 100, 12_345_678.9, 2.5e15, 1e16, 1e20, 123_456_789_012_345_680_000,
                      5e-324, .leastNormalMagnitude, .greatestFiniteMagnitude, 0.1 + 0.2, -42.25],
            floats: [0.1, 1, 3.4e38, 1e-45], ints: [.min, -1, 0, 1, .max],
            int8: .min, int16: .min, int32: .min, int64: .min, uint: .max, uint8: .max, uint16: .max, uint32: .max, uint64: .max,
            flag: true, date: Self.date, data: Data([0, 1, 2, 250, 255]), url: URL(string: "https://example.test/a/b?c=d&e=%20")!,
            decimal: Decimal(string: "12.50")!, absent: nil, optionalDoubles: [nil, 1.0])
        try expectSame(value)
    }

    @Test("dictionaries sort by UTF-8 bytes; nested arrays, objects and empty ones; top-level scalars and arrays")
    func shapes() throws {
        try expectSame(["b": 1, "a": 2, "B": 3, "_": 4, "aa": 5, "é": 6, "z\"q": 7, "": 8])
        try expectSame([3: "three", 1: "one", 20: "twenty"])
        try expectSame(["outer": ["inner": [[1, 2], [], [3]]], "empty": [:]])
        try expectSame([[String: [Int]]]())
        try expectSame("top")
        try expectSame(42)
        try expectSame(Optional<Int>.none)
        try expectSame([true, false])
    }

    enum Shape: Codable { case circle(radius: Double), square(side: Int, label: String?), none }

    class Base: Encodable {
        var base = "base"
    }

    final class Derived: Base {
        var extra = 2
        enum Keys: String, CodingKey { case extra }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }
    }

    struct Repeated: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try container.encode("again", forKey: .b)
        }
    }

    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct Holder: Encodable {
        var nothing = Nothing()
        var list = [Nothing()]
    }

    @Test("enums with associated values, super encoders, a repeated key (the last wins), values that encode nothing")
    func synthesizedAndCustomCoding() throws {
        try expectSame([Shape.circle(radius: 1.5), .square(side: 2, label: nil), .square(side: 3, label: "x"), .none])
        try expectSame(Derived())
        try expectSame(Repeated())
        try expectSame(Holder())
    }

    /// Synthesized Encodable leaves nil optionals out: one type, several key sequences.
    struct Sparse: Encodable {
        var zeta: Int?
        var alpha: String?
        var mid: Bool?
        var beta: [Int]?
    }

    @Test("one type whose values leave different keys out, many times over: each value keeps its own keys, sorted")
    func keySequencesOfOneType() throws {
        let variants = (0..<16).map { bits in
            Sparse(zeta: bits & 1 == 0 ? nil : bits, alpha: bits & 2 == 0 ? nil : "a\(bits)", mid: bits & 4 == 0 ? nil : true,
                   beta: bits & 8 == 0 ? nil : [bits])
        }
        for round in 0..<3 {
            for variant in round == 1 ? variants.reversed() : variants { try expectSame(variant) }
        }
    }

    @Test("what JSONEncoder refuses is refused: NaN, infinities, a top-level value that encodes nothing")
    func refusals() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode(["x": [value]]) }
            #expect(throws: EncodingError.self) { try Self.foundation(["x": [value]]) }
        }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode(Float.nan) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode(Nothing()) }
        #expect(throws: EncodingError.self) { try Self.foundation(Nothing()) }
    }

    /// A JSON-shaped value built at random: every path of the encoder, with keys and strings of
    /// any Unicode scalars and doubles of any bit pattern.
    indirect enum Random: Encodable {
        case string(String), double(Double), int(Int), bool(Bool), null
        case array([Random]), object([String: Random])

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            switch self {
            case .string(let value): try single.encode(value)
            case .double(let value): try single.encode(value)
            case .int(let value): try single.encode(value)
            case .bool(let value): try single.encode(value)
            case .null: try single.encodeNil()
            case .array(let items): try single.encode(items)
            case .object(let members): try single.encode(members)
            }
        }

        static func make(depth: Int, _ random: inout some RandomNumberGenerator) -> Random {
            switch Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &random) {
            case 0: return .string(text(&random))
            case 1:
                var value = Double(bitPattern: random.next())
                while !value.isFinite { value = Double(bitPattern: random.next()) }
                return .double(Bool.random(using: &random) ? value : Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 100)
            case 2: return .int(Int(truncatingIfNeeded: random.next()))
            case 3: return .bool(Bool.random(using: &random))
            case 4: return .null
            case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in make(depth: depth - 1, &random) })
            default:
                var members: [String: Random] = [:]
                for _ in 0..<Int.random(in: 0...5, using: &random) { members[text(&random)] = make(depth: depth - 1, &random) }
                return .object(members)
            }
        }

        static func text(_ random: inout some RandomNumberGenerator) -> String {
            let scalars = (0..<Int.random(in: 0...8, using: &random)).compactMap { _ -> Unicode.Scalar? in
                switch Int.random(in: 0..<4, using: &random) {
                case 0: Unicode.Scalar(UInt32.random(in: 0..<0x20, using: &random))
                case 1: Unicode.Scalar(UInt32.random(in: 0x20..<0x80, using: &random))
                case 2: Unicode.Scalar(UInt32.random(in: 0x80..<0xD800, using: &random))
                default: Unicode.Scalar(UInt32.random(in: 0xE000..<0x110000, using: &random))
                }
            }
            return String(String.UnicodeScalarView(scalars))
        }
    }


    @Test("500 random JSON-shaped values encode to JSONEncoder's bytes")
    func randomValues() throws {
        var random = SeededGenerator(state: 20_261_129)
        for _ in 0..<500 {
            let value = Random.make(depth: 4, &random)
            try expectSame(value)
        }
    }
}
