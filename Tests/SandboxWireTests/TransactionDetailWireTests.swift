import FastJSON
import Foundation
import SandboxWire
import Testing

/// The one `TransactionDetail` both sides use: the host's fast sorted writer, `JSONEncoder` and
/// `JSONDecoder` must agree on every field, so a field added to the model without its writer or
/// reader line fails here.
@Suite struct TransactionDetailWireTests {
    static let euro = TerminalCurrency(code: "EUR", name: "Euro", unitLength: 2, isoCode: 978, exponent: 2)
    static let dollar = TerminalCurrency(code: "USD", name: "US Dollar", unitLength: nil, isoCode: 840, exponent: 2)
    /// Milliseconds since 1970: wire times carry the millisecond, no more.
    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// Every optional field set, none to its default.
    static let full = TransactionDetail(
        transactionId: "a1f0c2e4", transactionStatus: .REFUNDED, transactionType: .AUTH, transactionAmount: 1250,
        tipAmount: 250, transactionDate: date(1_796_039_302_555), merchantId: "EU-M01", terminalId: "EU-T0101",
        cancellable: true, applicationLabel: "VISA DEBIT", cardType: "VISA", expiryDate: date(1_861_920_000_000),
        authId: "123456", AID: "A0000000031010", cardNumber: "476173******0011", responseCode: "00",
        responseMsg: "Approved", CID: "40", applicationCryptogram: "9F26A1B2C3D4E5F6", externalID: "INV-\"7\"",
        retrievalRefNum: "633412345678", refundedTransactionId: "r-1", refundedDate: date(1_796_039_400_001),
        refundedMaskedPan: "476173******0011", isReversalAvailable: false, paymentMethod: .CARD, refundable: false,
        ref1: "ünïcødé ✓", ref2: "line\nbreak", currency: euro, dccStatus: .DECLINED, dccAmount: 1399,
        dccCurrency: dollar, dccExchangeRate: 1.0834, dccMarkup: 3.5, dccEcbIndicator: true, transactionRetry: 2)

    /// Only the seed's mandatory fields.
    static let sparse = TransactionDetail(
        transactionId: "t", transactionStatus: .NEW, transactionType: .REFUND, transactionAmount: 0,
        transactionDate: date(0), merchantId: "", terminalId: "T", cancellable: false, authId: "", cardNumber: "",
        paymentMethod: .UNKNOWN)

    static func fast(_ detail: TransactionDetail) throws -> [UInt8] {
        var writer = SortedJSONWriter()
        try detail.write(to: &writer)
        return writer.bytes
    }

    static func foundation(_ detail: TransactionDetail) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(detail))
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes), options: []) as? [String: Any])
    }

    @Test("the full detail sets every stored property, and every property has a wire key")
    func fullCoversEveryField() {
        let children = Mirror(reflecting: Self.full).children
        for child in children {
            #expect(String(describing: child.value) != "nil", "\(child.label ?? "?") is not set in the full detail")
        }
        #expect(
            children.compactMap(\.label) == TransactionDetail.CodingKeys.allCases.map(\.stringValue),
            "every stored property is a wire field, in the seed's order")
    }

    @Test("the host's sorted writer gives JSONEncoder's bytes for a full and a sparse detail", arguments: [full, sparse])
    func fastWriterIsJSONEncoder(_ detail: TransactionDetail) throws {
        let fast = try Self.fast(detail)
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: try Self.foundation(detail), as: UTF8.self))
        #expect(try SortedJSONEncoder.encode(detail) == fast)
    }

    @Test("every one of the 37 keys is written, an absent value as null")
    func everyKeyWritten() throws {
        let keys = TransactionDetail.CodingKeys.allCases.map(\.stringValue)
        #expect(keys.count == 37)
        let full = try Self.object(try Self.fast(Self.full))
        #expect(full.keys.sorted() == keys.sorted())
        #expect(full.values.allSatisfy { !($0 is NSNull) }, "the full detail writes no null")
        #expect(full["AID"] as? String == "A0000000031010")
        #expect(full["CID"] as? String == "40")
        #expect(full["transactionDate"] as? String == "2026-11-30T11:48:22.555Z")
        let sparse = try Self.object(try Self.fast(Self.sparse))
        #expect(sparse.keys.sorted() == keys.sorted())
        let nulls = sparse.filter { $0.value is NSNull }.keys.sorted()
        #expect(nulls.count == 26, "every optional field of a sparse detail is written as null: \(nulls)")
    }

    @Test("decode then encode keeps every field, from the sorted writer's bytes and from JSONEncoder's", arguments: [full, sparse])
    func roundTrip(_ detail: TransactionDetail) throws {
        let decoder = JSONDecoder()
        let fromFast = try decoder.decode(TransactionDetail.self, from: Data(try Self.fast(detail)))
        #expect(fromFast == detail)
        let fromFoundation = try decoder.decode(TransactionDetail.self, from: Data(try Self.foundation(detail)))
        #expect(fromFoundation == detail)
        #expect(try Self.fast(fromFast) == (try Self.fast(detail)))
    }

    @Test("a sparse object from another host still decodes: optional keys may be absent")
    func absentOptionalKeys() throws {
        let text = #"""
            {"transactionId":"t","transactionStatus":"CLEARED","transactionType":"AUTH","transactionAmount":100,
             "transactionDate":"2026-11-29T12:48:22Z","merchantId":"M","terminalId":"T","cancellable":false,
             "authId":"1","cardNumber":"4242","paymentMethod":"CARD","AID":"A0000000041010"}
            """#
        let detail = try JSONDecoder().decode(TransactionDetail.self, from: Data(text.utf8))
        #expect(detail.transactionStatus == .CLEARED)
        #expect(detail.AID == "A0000000041010")
        #expect(detail.CID == nil && detail.currency == nil && detail.dccStatus == nil)
        #expect(detail.transactionDate == Date(timeIntervalSince1970: 1_795_956_502))
    }
}
