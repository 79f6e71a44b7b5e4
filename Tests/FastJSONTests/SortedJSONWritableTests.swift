import FastJSON
import Foundation
import SandboxCore
import SandboxWire
import SandboxTestSupport
import Testing

/// The wire types that write their own JSON must write JSONEncoder's bytes for every value: a
/// field whose sorted bytes differ from what `encode(to:)` gives through JSONEncoder fails here.
@Suite struct SortedJSONWritableTests {
    typealias Random = SeededGenerator

    static func written(_ value: some SortedJSONWritable) throws -> [UInt8] {
        var writer = SortedJSONWriter()
        try value.write(to: &writer)
        return writer.bytes
    }

    func expectWritten(_ value: some SortedJSONWritable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try SortedJSONEncoderTests.foundation(value)
        SortedJSONEncoderTests.expect(try Self.written(value), isFoundations: expected, sourceLocation: sourceLocation)
        #expect(try SortedJSONEncoder.encode(value) == expected, sourceLocation: sourceLocation)
    }

    static func text(_ random: inout Random) -> String {
        SortedJSONEncoderTests.Random.text(&random)
    }

    static func maybe<T>(_ random: inout Random, _ make: (inout Random) -> T) -> T? {
        Bool.random(using: &random) ? make(&random) : nil
    }

    static func currency(_ random: inout Random) -> TerminalCurrency {
        TerminalCurrency(
            code: text(&random), name: text(&random), unitLength: maybe(&random) { Int.random(in: 0...4, using: &$0) },
            isoCode: maybe(&random) { Int.random(in: 0...999, using: &$0) }, exponent: maybe(&random) { Int.random(in: -3...4, using: &$0) })
    }

    static func date(_ random: inout Random) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000_000...7_000_000_000_000, using: &random)) / 1000)
    }

    static func double(_ random: inout Random) -> Double {
        var value = Double(bitPattern: random.next())
        while !value.isFinite { value = Double(bitPattern: random.next()) }
        return Bool.random(using: &random) ? value : Double(Int.random(in: -100_000...100_000, using: &random)) / 10_000
    }

    /// Every field set, or left nil, at random; strings with control characters, quotes and non-ASCII.
    static func detail(_ random: inout Random) -> TransactionDetail {
        TransactionDetail(
            transactionId: text(&random), transactionStatus: TransactionStatus.allCases.randomElement(using: &random)!,
            transactionType: TransactionType.allCases.randomElement(using: &random)!,
            transactionAmount: Int(truncatingIfNeeded: random.next()),
            tipAmount: maybe(&random) { Int(truncatingIfNeeded: $0.next()) }, transactionDate: date(&random),
            merchantId: text(&random), terminalId: text(&random), cancellable: Bool.random(using: &random),
            applicationLabel: maybe(&random, text), cardType: maybe(&random, text), expiryDate: maybe(&random, date),
            authId: text(&random), AID: maybe(&random, text), cardNumber: text(&random),
            responseCode: maybe(&random, text), responseMsg: maybe(&random, text), CID: maybe(&random, text),
            applicationCryptogram: maybe(&random, text), externalID: maybe(&random, text),
            retrievalRefNum: maybe(&random, text), refundedTransactionId: maybe(&random, text),
            refundedDate: maybe(&random, date), refundedMaskedPan: maybe(&random, text),
            isReversalAvailable: Bool.random(using: &random),
            paymentMethod: PaymentMethod.allCases.randomElement(using: &random)!,
            refundable: Bool.random(using: &random), ref1: maybe(&random, text), ref2: maybe(&random, text),
            currency: maybe(&random, currency),
            dccStatus: maybe(&random) { DCCStatus.allCases.randomElement(using: &$0)! },
            dccAmount: maybe(&random) { Int(truncatingIfNeeded: $0.next()) }, dccCurrency: maybe(&random, currency),
            dccExchangeRate: maybe(&random, double), dccMarkup: maybe(&random, double),
            dccEcbIndicator: maybe(&random) { Bool.random(using: &$0) },
            transactionRetry: maybe(&random) { Int.random(in: 0...9, using: &$0) })
    }

    @Test("300 random transaction details are written as JSONEncoder encodes them")
    func randomDetails() throws {
        var random = Random(state: 20_261_129_2)
        for _ in 0..<300 { try expectWritten(Self.detail(&random)) }
    }

    @Test("a detail with every optional field set, and one with none")
    func fullAndEmptyDetails() throws {
        var random = Random(state: 7)
        var full = Self.detail(&random)
        full.tipAmount = 250
        full.applicationLabel = "VISA DEBIT"
        full.cardType = "VISA"
        full.expiryDate = Self.date(&random)
        full.AID = "A0000000031010"
        full.responseCode = "00"
        full.responseMsg = "Approved"
        full.CID = "40"
        full.applicationCryptogram = "9F26A1B2C3D4E5F6"
        full.externalID = "ext/1"
        full.retrievalRefNum = "012345678901"
        full.refundedTransactionId = "r-1"
        full.refundedDate = Self.date(&random)
        full.refundedMaskedPan = "************4242"
        full.ref1 = "Ref \"one\""
        full.ref2 = "ünïcødé ✓"
        full.currency = TerminalCurrency(code: "EUR", name: "Euro", unitLength: 2, isoCode: 978, exponent: 2)
        full.dccStatus = .ACCEPTED
        full.dccAmount = 1399
        full.dccCurrency = TerminalCurrency(code: "USD", name: "US Dollar", unitLength: nil, isoCode: nil, exponent: nil)
        full.dccExchangeRate = 1.0834
        full.dccMarkup = 3
        full.dccEcbIndicator = false
        full.transactionRetry = 2
        // Every stored property is set: a property added later without a value here shows up as nil.
        for child in Mirror(reflecting: full).children {
            #expect(String(describing: child.value) != "nil", "\(child.label ?? "?") is not set in the full detail")
        }
        try expectWritten(full)
        try expectWritten(
            TransactionDetail(
                transactionId: "t", transactionStatus: .DECLINED, transactionType: .REFUND, transactionAmount: 0,
                transactionDate: Date(timeIntervalSince1970: 0), merchantId: "", terminalId: "T", cancellable: false, authId: "",
                cardNumber: "", paymentMethod: .UNKNOWN))
    }

    @Test("a rate JSON cannot hold throws JSONEncoder's error")
    func nonFiniteRate() {
        var detail = TransactionDetail(
            transactionId: "t", transactionStatus: .DCC_REQUIRED, transactionType: .AUTH, transactionAmount: 1,
            transactionDate: Date(timeIntervalSince1970: 0), merchantId: "M", terminalId: "T", cancellable: false, authId: "",
            cardNumber: "", paymentMethod: .CARD)
        detail.dccExchangeRate = .infinity
        #expect(throws: EncodingError.self) { try SortedJSONEncoderTests.foundation(detail) }
        #expect(throws: EncodingError.self) { try Self.written(detail) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode(detail) }
    }

    /// A QR or BLIK transaction with every field set, or left nil, at random.
    static func apmTransaction(_ random: inout Random) -> APMTransaction {
        APMTransaction(
            transactionId: text(&random), transactionStatus: TransactionStatus.allCases.randomElement(using: &random)!,
            transactionType: TransactionType.allCases.randomElement(using: &random)!,
            paymentMethod: PaymentMethod.allCases.randomElement(using: &random)!,
            brand: maybe(&random) { APMPaymentData.APMBrand(rawValue: text(&$0)) }, brandFullName: maybe(&random, text),
            transactionAmount: Int(truncatingIfNeeded: random.next()), tipAmount: maybe(&random) { Int(truncatingIfNeeded: $0.next()) },
            currency: currency(&random), transactionDate: date(&random), expiresAt: maybe(&random, date), merchantId: text(&random),
            terminalId: text(&random), externalID: maybe(&random, text), qrCode: maybe(&random, text), qrCodeSVG: maybe(&random, text),
            providerReference: maybe(&random, text), responseCode: maybe(&random, text), responseMsg: maybe(&random, text),
            declineReason: maybe(&random, text), refundedTransactionId: maybe(&random, text),
            refundable: maybe(&random) { Bool.random(using: &$0) })
    }

    /// A wallet order with every optional field set, or left nil, at random.
    static func order(_ random: inout Random) -> WalletProvider.Order {
        WalletProvider.Order(
            orderId: text(&random), region: text(&random), merchantId: text(&random), merchantName: text(&random),
            terminalId: text(&random), amount: Int(truncatingIfNeeded: random.next()), currency: text(&random), brand: text(&random),
            brandFullName: maybe(&random, text), reference: maybe(&random, text),
            status: WalletProvider.OrderStatus.allCases.randomElement(using: &random)!, payUrl: text(&random), createdAt: date(&random),
            expiresAt: date(&random), paymentId: maybe(&random, text), reason: maybe(&random, text))
    }

    @Test("300 random QR and BLIK transactions and 300 wallet orders are written as JSONEncoder encodes them")
    func randomAPMTransactionsAndOrders() throws {
        var random = Random(state: 20_261_204)
        for _ in 0..<300 {
            try expectWritten(Self.apmTransaction(&random))
            try expectWritten(Self.order(&random))
        }
    }
}
