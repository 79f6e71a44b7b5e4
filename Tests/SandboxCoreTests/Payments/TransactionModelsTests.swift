import Foundation
import SandboxCore
import SandboxWire
import Testing

@Suite struct TransactionModelsTests {
    /// The seed's TransactionDetail table, property by property, in its order.
    static let seedDetailFields = [
        "transactionId", "transactionStatus", "transactionType", "transactionAmount", "tipAmount", "transactionDate",
        "merchantId", "terminalId", "cancellable", "applicationLabel", "cardType", "expiryDate", "authId", "AID",
        "cardNumber", "responseCode", "responseMsg", "CID", "applicationCryptogram", "externalID", "retrievalRefNum",
        "refundedTransactionId", "refundedDate", "refundedMaskedPan", "isReversalAvailable", "paymentMethod",
        "refundable", "ref1", "ref2", "currency", "dccStatus", "dccAmount", "dccCurrency", "dccExchangeRate",
        "dccMarkup", "dccEcbIndicator", "transactionRetry",
    ]

    static let euro = TerminalCurrency(code: "EUR", name: "Euro", unitLength: 2, isoCode: 978, exponent: 2)

    /// A bare sale: only the seed's mandatory fields.
    static let bare = TransactionDetail(
        transactionId: "0f8e2c1a9b7d4e6f8a0b1c2d3e4f5a6b", transactionStatus: .NEW, transactionType: .AUTH,
        transactionAmount: 1250, transactionDate: Date(timeIntervalSince1970: 1_795_956_502.555), merchantId: "EU-M01",
        terminalId: "EU-T0101", cancellable: false, authId: "", cardNumber: "", paymentMethod: .CARD)

    static func json(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theDetailHasExactlyTheSeedsFields() throws {
        #expect(Self.seedDetailFields.count == 37)
        #expect(TransactionDetail.CodingKeys.allCases.map(\.stringValue) == Self.seedDetailFields)
        let object = try Self.json(Self.bare)
        #expect(Set(object.keys) == Set(Self.seedDetailFields))
    }

    @Test func optionalFieldsAreWrittenAsExplicitNull() throws {
        let object = try Self.json(Self.bare)
        let nulls = object.filter { $0.value is NSNull }.map(\.key).sorted()
        let mandatory: Set = [
            "transactionId", "transactionStatus", "transactionType", "transactionAmount", "transactionDate",
            "merchantId", "terminalId", "cancellable", "authId", "cardNumber", "paymentMethod",
        ]
        #expect(nulls == Self.seedDetailFields.filter { !mandatory.contains($0) }.sorted())
        #expect(nulls.count == 26)
        let text = String(decoding: try JSONEncoder().encode(Self.bare), as: UTF8.self)
        #expect(text.contains(#""AID":null"#))
        #expect(text.contains(#""dccCurrency":null"#))
    }

    @Test func aFullDetailRoundTripsWithSeedSpellings() throws {
        var detail = Self.bare
        detail.transactionStatus = .CLEARED
        detail.tipAmount = 250
        detail.AID = "A0000000031010"
        detail.CID = "40"
        detail.externalID = "INV-000123"
        detail.retrievalRefNum = "633412345678"
        detail.applicationCryptogram = "9F2608A1B2C3D4E5F60718"
        detail.expiryDate = Date(timeIntervalSince1970: 1_861_833_600)   // 2028-12-31
        detail.currency = Self.euro
        detail.dccStatus = .ACCEPTED
        detail.transactionRetry = 0
        let data = try JSONEncoder().encode(detail)
        let object = try Self.json(detail)
        #expect(object["AID"] as? String == "A0000000031010")
        #expect(object["CID"] as? String == "40")
        #expect(object["externalID"] as? String == "INV-000123")
        #expect(object["transactionStatus"] as? String == "CLEARED")
        #expect(object["dccStatus"] as? String == "ACCEPTED")
        #expect(object["transactionDate"] as? String == "2026-11-29T12:48:22.555Z")
        #expect(object["expiryDate"] as? String == "2028-12-31T00:00:00.000Z")
        let currency = try #require(object["currency"] as? [String: Any])
        #expect(Set(currency.keys) == ["code", "name", "unitLength", "isoCode", "exponent"])
        #expect(try JSONDecoder().decode(TransactionDetail.self, from: data) == detail)
    }

    @Test func datesAreReadWithOrWithoutFractions() throws {
        var object = try Self.json(Self.bare)
        object["transactionDate"] = "2026-11-29T12:48:22Z"
        let data = try JSONSerialization.data(withJSONObject: object)
        let detail = try JSONDecoder().decode(TransactionDetail.self, from: data)
        #expect(detail.transactionDate == Date(timeIntervalSince1970: 1_795_956_502))

        object["transactionDate"] = "yesterday"
        let bad = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TransactionDetail.self, from: bad) }
    }

    @Test func statusesAreTheSeeds() {
        #expect(TransactionStatus.allCases.map(\.rawValue) == [
            "CLEARED", "PIN_REQUESTED", "NEW", "REJECTED", "REFUNDED", "TIMEOUT", "USER_CANCELLED", "ERROR",
            "TERMINAL_DECLINED", "ONGOING", "AUTHORIZED", "DECLINED", "CANCELLED", "DCC_REQUIRED",
        ])
        #expect(TransactionStatus.allCases.filter(\.isInFlight) == [.PIN_REQUESTED, .NEW, .ONGOING, .DCC_REQUIRED])
        #expect(TransactionType.allCases.map(\.rawValue) == ["AUTH", "REFUND"])
        #expect(PaymentMethod.allCases.map(\.rawValue) == ["CARD", "QRCODE", "BLIK", "UNKNOWN"])
        #expect(DCCStatus.allCases.map(\.rawValue) == ["OFFERED", "ACCEPTED", "DECLINED"])
        #expect(TransactionsStatisticsType.allCases.map(\.rawValue) == ["daily", "brand"])
    }

    @Test func anUnknownStatusIsRefused() throws {
        var object = try Self.json(Self.bare)
        object["transactionStatus"] = "SETTLED"
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TransactionDetail.self, from: data) }
    }

    @Test func aHistoryItemHasTheSeedsTenFieldsWithNulls() throws {
        let item = TransactionHistoryItem(Self.bare)
        let object = try Self.json(item)
        #expect(Set(object.keys) == [
            "transactionId", "transactionDate", "transactionStatus", "amount", "transactionType", "cardType",
            "applicationLabel", "paymentMethod", "amountRefund", "currency",
        ])
        #expect(object["amount"] as? Int == 1250)
        #expect(object["amountRefund"] is NSNull)
        #expect(object["cardType"] is NSNull)
        #expect(object["transactionDate"] as? String == "2026-11-29T12:48:22.555Z")
        let data = try JSONEncoder().encode(TransactionsHistoryPage(items: [item], page: 1, itemsPerPage: 20, total: 1))
        let page = try JSONDecoder().decode(TransactionsHistoryPage.self, from: data)
        #expect(page.items == [item])
    }

    @Test func statisticsHaveADescriptionAndItems() throws {
        let statistics = TransactionsStatistics(
            description: "VISA",
            items: [.init(fromDate: "2026-11-29T00:00:00.000Z", toDate: "2026-11-29T23:59:59.999Z", amount: 4250, count: 3)])
        let object = try Self.json(statistics)
        #expect(Set(object.keys) == ["description", "items"])
        let item = try #require((object["items"] as? [[String: Any]])?.first)
        #expect(Set(item.keys) == ["fromDate", "toDate", "amount", "count"])
        let data = try JSONEncoder().encode(statistics)
        #expect(try JSONDecoder().decode(TransactionsStatistics.self, from: data) == statistics)
    }

    @Test("a transactionDate shows the very millisecond it was made from, from 1900 to 2200, and reads back equal")
    func wireDatesKeepTheirMillisecond() throws {
        // Foundation's ISO 8601 style truncates: nudged 0.4 ms up, it prints the intended millisecond
        // and serves as an independent reference for the calendar arithmetic.
        let reference = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var random = SystemRandomNumberGenerator()
        let edges: [Int64] = [
            0, -1, 951_782_400_000, 951_868_799_999, 4_107_542_399_999, 4_107_542_400_000, 946_684_799_999,
            -2_208_988_800_000, 7_258_118_399_999, 1_795_956_502_555, 1_072_926_639_650,
        ]
        let samples = edges + (0..<3_000).map { _ in Int64.random(in: -2_208_988_800_000...7_258_118_399_999, using: &random) }
        for milliseconds in samples {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            var detail = Self.bare
            detail.transactionDate = date
            let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(detail)) as? [String: Any])
            let text = try #require(object["transactionDate"] as? String)
            let expected = Date(timeIntervalSince1970: Double(milliseconds) / 1000 + 0.0004).formatted(reference)
            #expect(text == expected, "\(milliseconds) ms")
            let back = try JSONDecoder().decode(TransactionDetail.self, from: JSONSerialization.data(withJSONObject: object))
            #expect(back.transactionDate == date, "\(milliseconds) ms read back as \(back.transactionDate.timeIntervalSince1970)")
        }
    }
}
