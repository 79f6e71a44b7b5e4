import Foundation
import SandboxTestSupport
import Testing

@testable import FastJSON

/// The fast path must give Foundation's value whenever it gives one, and leave everything else to
/// Foundation: `fastDecode` is compared with `JSONDecoder` directly, so falling back cannot hide
/// a wrong value.
@Suite struct FastJSONDecoderTests {
    struct Card: Codable, Equatable {
        enum Method: String, Codable { case none, onlinePin }
        var pan: String
        var expiry: String
        var country: String?
        var cvm: Method
    }

    struct Sale: Codable, Equatable {
        var currency: String
        var requestedAmount: Int
        var tipAmount: Int?
        var reference: String?
        var cardPayload: String?
        var card: Card?
        var readAt: Int64
        var flags: [Bool]
        var rates: [String: Double]
        var ratio: Double?
        var small: UInt8?
        var signed: Int16?
        var wide: UInt64?
    }

    struct Numbers: Codable, Equatable {
        var int: Int?
        var int64: Int64?
        var uint: UInt?
        var int8: Int8?
        var double: Double?
    }

    struct Text: Codable, Equatable {
        var text: String
    }

    /// Whatever `fastDecode` answers is Foundation's value; returns whether it answered.
    @discardableResult
    static func agrees<T: Decodable & Equatable>(_ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        agrees(type, Array(json.utf8), sourceLocation: sourceLocation)
    }

    @discardableResult
    static func agrees<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let foundation = Result { try JSONDecoder().decode(T.self, from: Data(bytes)) }
        let wrapped = Result { try FastJSONDecoder.decode(T.self, from: bytes) }
        switch (foundation, wrapped) {
        case (.success(let expected), .success(let value)):
            #expect(value == expected, sourceLocation: sourceLocation)
        case (.failure(let expected), .failure(let error)):
            #expect(String(describing: error) == String(describing: expected), sourceLocation: sourceLocation)
        default:
            Issue.record("Foundation: \(foundation), FastJSONDecoder: \(wrapped)", sourceLocation: sourceLocation)
        }
        guard let fast = FastJSONDecoder.fastDecode(T.self, from: bytes) else { return false }
        #expect((try? foundation.get()) == fast, "fast path answered \(fast) for \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        return true
    }

    @Test func decodesARequestOnTheFastPath() {
        let json = """
            {"currency":"EUR","requestedAmount":1000,"tipAmount":null,"cardPayload":"q83vEjRWeJq8/+A=","readAt":1795956502555,
             "card":{"pan":"4761730000000011","expiry":"2812","cvm":"onlinePin"},"flags":[true,false],"rates":{"USD":1.0842,"GBP":0.85},
             "ratio":-0.5e-3,"small":255,"signed":-32768,"wide":18446744073709551615,"unknown":[{"deep":[1,2,{"x":null}]}]}
            """
        #expect(Self.agrees(Sale.self, json))
        let sale = FastJSONDecoder.fastDecode(Sale.self, from: Array(json.utf8))
        #expect(sale?.card?.cvm == .onlinePin)
        #expect(sale?.tipAmount == nil)
        #expect(sale?.rates["USD"] == 1.0842)
        #expect(sale?.wide == UInt64.max)
    }

    @Test(arguments: [
        #"{"text":"plain"}"#, #"{"text":""}"#, #"{"text":"q\"uote \\ back\/slash"}"#, #"{"text":"\b\f\n\r\t"}"#,
        #"{"text":"\u00e9\u0000\u001f\u20AC"}"#, #"{"text":"\ud83d\ude00 pair"}"#, #"{"text":"Café 😀 ünïcödé"}"#,
        #"{"text":"e\u0301"}"#, "{\"text\":\"caf\u{65}\u{301}\"}", " \n\t\r{ \"text\" : \"spaced\" } \r\n",
    ])
    func stringsMatchFoundation(json: String) {
        #expect(Self.agrees(Text.self, json))
    }

    @Test(arguments: [
        #"{"text":"\ud83d alone"}"#, #"{"text":"\ude00 low"}"#, #"{"text":"\ud83d\u0041"}"#, #"{"text":"\x"}"#, #"{"text":"\u12"}"#,
        "{\"text\":\"tab\there\"}", #"{"t\u0065xt":"escaped key"}"#, #"{"téxt":"x","text":"non-ASCII key"}"#,
        #"{"text":"a","text":"repeated"}"#, #"{"text":1}"#, #"{"text":null}"#, #"{}"#, #""text""#, "", " ", "{", #"{"text":"a",}"#,
        #"{"text":"a"} x"#, "\u{FEFF}{\"text\":\"bom\"}", #"[{"text":"a"}]"#,
    ])
    func unusualStringsGoToFoundation(json: String) {
        #expect(!Self.agrees(Text.self, json))
    }

    @Test(arguments: [
        #"{"int":0}"#, #"{"int":-0}"#, #"{"int64":9223372036854775807}"#, #"{"int64":-9223372036854775808}"#,
        #"{"uint":18446744073709551615}"#, #"{"int8":-128}"#, #"{"int8":127}"#, #"{"double":0.1}"#, #"{"double":-0}"#,
        #"{"double":1e-320}"#, #"{"double":5e-324}"#, #"{"double":1.7976931348623157e308}"#, #"{"double":2.2250738585072014e-308}"#,
        #"{"double":123456789012345678901234567890}"#, #"{"double":9007199254740993}"#, #"{"double":1E+2}"#, #"{"double":12}"#,
        #"{"int":null,"double":null}"#, #"{"other":1e999}"#, #"{"other":-1e-999}"#, #"{"double":0e-999}"#, #"{"double":-0.000e5}"#,
    ])
    func numbersMatchFoundation(json: String) {
        #expect(Self.agrees(Numbers.self, json))
    }

    @Test(arguments: [
        #"{"int":1.0}"#, #"{"int":1e2}"#, #"{"int":9223372036854775808}"#, #"{"int64":-9223372036854775809}"#, #"{"uint":-0}"#,
        #"{"uint":-1}"#, #"{"int8":128}"#, #"{"int8":-129}"#, #"{"double":1e999}"#, #"{"double":1e-999}"#, #"{"double":-0.0001e-400}"#, #"{"int":01}"#, #"{"int":1.}"#, #"{"int":.5}"#,
        #"{"int":-}"#, #"{"int":+1}"#, #"{"int":1e}"#, #"{"int":"1"}"#, #"{"int":true}"#, #"{"double":NaN}"#,
        #"{"int":99999999999999999999999}"#,
    ])
    func unusualNumbersGoToFoundation(json: String) {
        #expect(!Self.agrees(Numbers.self, json))
    }

    @Test func specialFoundationTypesGoToFoundation() {
        struct Special: Codable, Equatable {
            var date: Date?
            var data: Data?
            var url: URL?
            var decimal: Decimal?
            var float: Float?
        }
        #expect(Self.agrees(Special.self, #"{}"#))
        for json in [#"{"date":12.5}"#, #"{"data":"AQID"}"#, #"{"url":"https://example.com/a"}"#, #"{"decimal":1.1}"#, #"{"float":0.1}"#] {
            #expect(!Self.agrees(Special.self, json))
        }
    }

    /// Foundation refuses invalid UTF-8 in a value it reads and passes over it elsewhere; the fast
    /// path leaves both to it.
    /// Swift compares strings by canonical equivalence: the KELVIN SIGN key matches a document's
    /// "K", which a byte comparison would miss. Such a key name is left to Foundation, also when
    /// only asked whether it is there (`decodeIfPresent`).
    @Test func nonASCIIKeyNamesGoToFoundation() {
        struct Kelvin: Decodable, Equatable {
            var value: Int?
            enum CodingKeys: String, CodingKey { case value = "\u{212A}" }
        }
        #expect(!Self.agrees(Kelvin.self, #"{"K":1}"#))
        #expect((try? FastJSONDecoder.decode(Kelvin.self, from: Array(#"{"K":1}"#.utf8))) == (try? JSONDecoder().decode(Kelvin.self, from: Data(#"{"K":1}"#.utf8))))
    }

    /// A decoder that catches an error and goes on with a default must not get a different value
    /// from the fast path (here for a Float, which the fast path leaves to Foundation).
    @Test func caughtErrorsStillGoToFoundation() throws {
        struct Lenient: Decodable, Equatable {
            var ratio: Float
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                ratio = (try? container.decode(Float.self, forKey: .ratio)) ?? -1
            }
            enum CodingKeys: String, CodingKey { case ratio }
        }
        #expect(!Self.agrees(Lenient.self, #"{"ratio":0.5}"#))
        #expect(try FastJSONDecoder.decode(Lenient.self, from: Array(#"{"ratio":0.5}"#.utf8)).ratio == 0.5)
    }

    @Test func invalidUTF8GoesToFoundation() {
        var unread = Array(#"{"text":"ok","other":"_"}"#.utf8)
        unread[unread.count - 3] = 0xC3  // a lead byte without its continuation
        #expect(!Self.agrees(Text.self, unread))
        var read = Array(#"{"text":"_"}"#.utf8)
        read[read.count - 3] = 0xC3
        #expect(!Self.agrees(Text.self, read))
        #expect(throws: DecodingError.self) { try FastJSONDecoder.decode(Text.self, from: read) }
    }

    @Test func nestingBeyondTheTapeDepthGoesToFoundation() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(!Self.agrees(Text.self, "{\"text\":\"a\",\"deep\":\(deep)}"))
        let shallow = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(Self.agrees(Text.self, "{\"text\":\"a\",\"deep\":\(shallow)}"))
    }

    @Test func customDecodersSeeFoundationsErrors() {
        struct Versioned: Decodable, Equatable {
            var v: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                v = try container.decode(Int.self, forKey: .v)
                guard v == 1 else { throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "version \(v)") }
            }
            enum CodingKeys: String, CodingKey { case v }
        }
        #expect(Self.agrees(Versioned.self, #"{"v":1}"#))
        #expect(!Self.agrees(Versioned.self, #"{"v":2}"#))
        #expect(throws: DecodingError.self) { try FastJSONDecoder.decode(Versioned.self, from: Array(#"{"v":2}"#.utf8)) }
    }

    @Test func arraysAndCodingPathsInNestedContainers() {
        struct Path: Decodable, Equatable {
            var paths: [String]
            init(from decoder: any Decoder) throws {
                var items = try decoder.container(keyedBy: AnyKey.self).nestedUnkeyedContainer(forKey: AnyKey(stringValue: "items")!)
                var paths: [String] = []
                while !items.isAtEnd {
                    let inner = try items.nestedContainer(keyedBy: AnyKey.self)
                    paths.append(inner.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))
                    _ = try inner.decode(Int.self, forKey: AnyKey(stringValue: "n")!)
                }
                self.paths = paths
            }
        }
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        #expect(Self.agrees(Path.self, #"{"items":[{"n":1},{"n":2}]}"#))
        #expect(FastJSONDecoder.fastDecode(Path.self, from: Array(#"{"items":[{"n":1},{"n":2}]}"#.utf8))?.paths == ["items.0", "items.1"])
        #expect(Self.agrees([String: [Int?]].self, #"{"a":[1,null,3],"b":[]}"#))
        #expect(Self.agrees([Int].self, #"[1,2,3]"#))
    }

    /// Random documents of the request's shape, then the same documents with one byte changed,
    /// dropped or doubled: every answer of the fast path is Foundation's.
    @Test func randomDocumentsAndTheirMutationsMatchFoundation() throws {
        var random = SeededGenerator(state: 0x5A1E)
        let alphabet = Array("aZ09 \"\\/\u{08}\u{0C}\n\r\t\u{01}é€😀".unicodeScalars)
        func text() -> String {
            String(String.UnicodeScalarView((0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        let encoder = JSONEncoder()
        var fastAnswers = 0
        for round in 0..<300 {
            let card = random.next() % 3 == 0 ? nil : Card(pan: text(), expiry: text(), country: random.next() % 2 == 0 ? nil : text(), cvm: random.next() % 2 == 0 ? .none : .onlinePin)
            let sale = Sale(
                currency: text(), requestedAmount: Int(truncatingIfNeeded: random.next()), tipAmount: random.next() % 2 == 0 ? nil : Int(random.next() % 1000),
                reference: random.next() % 2 == 0 ? nil : text(), cardPayload: text(), card: card, readAt: Int64(truncatingIfNeeded: random.next()),
                flags: (0..<Int(random.next() % 3)).map { _ in random.next() % 2 == 0 },
                rates: Dictionary(uniqueKeysWithValues: (0..<Int(random.next() % 3)).map { index in ("k\(index)", Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)) }),
                ratio: random.next() % 2 == 0 ? nil : Double(Int64(truncatingIfNeeded: random.next())) / 1e6, small: UInt8(truncatingIfNeeded: random.next()),
                signed: Int16(truncatingIfNeeded: random.next()), wide: random.next())
            encoder.outputFormatting = round % 2 == 0 ? [.sortedKeys] : [.prettyPrinted, .withoutEscapingSlashes]
            let bytes = Array(try encoder.encode(sale))
            if Self.agrees(Sale.self, bytes) { fastAnswers += 1 }
            for _ in 0..<5 {
                var mutated = bytes
                let index = Int(random.next() % UInt64(mutated.count))
                switch random.next() % 3 {
                case 0: mutated[index] = UInt8(truncatingIfNeeded: random.next() % 128)
                case 1: mutated.remove(at: index)
                default: mutated.insert(mutated[index], at: index)
                }
                Self.agrees(Sale.self, mutated)
            }
        }
        #expect(fastAnswers == 300, "every well-formed document of the request's shape takes the fast path")
    }
}

/// A document ``JSONShape`` checked decodes from the tape the check parsed, to what Foundation
/// decodes: keys with escapes or beyond ASCII (which that tape takes) go to Foundation whole.
@Suite struct CheckedDecodeTests {
    struct Sale: Codable, Equatable {
        var currency: String
        var amount: Int
        var note: String?
    }

    @Test(arguments: [
        #"{"currency": "EUR", "amount": 1250}"#,
        #"{"currency": "EUR", "amount": 1250, "note": "caf\u00e9"}"#,
        #"{"curr\u0065ncy": "EUR", "amount": 1250}"#,
        #"{"currency": "EUR", "amount": 1250, "notë": 1}"#,
    ])
    func aCheckedDocumentDecodesAsFoundationDoes(json: String) throws {
        let bytes = Array(json.utf8)
        let expected = try JSONDecoder().decode(Sale.self, from: Data(bytes))
        #expect(try FastJSONDecoder.decode(Sale.self, from: try JSONShape.check(bytes)) == expected)
    }

    @Test func aCheckedTapeRemembersWhetherItsKeysArePlain() throws {
        #expect(try JSONShape.check(Array(#"{"a": {"b": 1}}"#.utf8)).tape?.plainKeys == true)
        #expect(try JSONShape.check(Array(#"{"a": {"\u0062": 1}}"#.utf8)).tape?.plainKeys == false)
        #expect(try JSONShape.check(Array(#"{"a": "\u0062"}"#.utf8)).tape?.plainKeys == true, "an escaped value is no key")
    }
}
