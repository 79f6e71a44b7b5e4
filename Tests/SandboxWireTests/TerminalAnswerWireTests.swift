import FastJSON
import Foundation
import SandboxWire
import Testing

/// The reader configuration, the host's health, the statistics answer and the payment steps'
/// bodies, one type each for the host and the SDK: the host's bytes are what it wrote before
/// (its own struct, or a dictionary), and what the SDK needs is all it requires.
@Suite struct TerminalAnswerWireTests {
    func text(_ value: some Encodable) throws -> String { String(decoding: try SortedJSONEncoder.encode(value), as: UTF8.self) }

    func expectRoundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try JSONDecoder().decode(T.self, from: Data(try SortedJSONEncoder.encode(value))) == value, sourceLocation: sourceLocation)
    }

    @Test func readerConfiguration() throws {
        let configuration = ReaderConfiguration(
            readerKey: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", keyId: "eu-reader-1", serverTime: "2026-12-01T10:00:00Z",
            serverTimeUnix: 1_796_119_200, cardScreenTimeoutSeconds: 40, payloadLifetimeSeconds: 120, pinTimeoutSeconds: 60)
        #expect(
            try text(configuration)
                == #"{"cardScreenTimeoutSeconds":40,"keyId":"eu-reader-1","payloadLifetimeSeconds":120,"pinTimeoutSeconds":60,"readerKey":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=","serverTime":"2026-12-01T10:00:00Z","serverTimeUnix":1796119200}"#
        )
        try expectRoundTrip(configuration)
        // prepareDevice reads the key, its id and the server time; an older host wrote no serverTimeUnix.
        let older = try JSONDecoder().decode(
            ReaderConfiguration.self, from: Data(#"{"keyId":"k","readerKey":"AA==","serverTime":"2026-12-01T10:00:00Z"}"#.utf8))
        #expect(older.serverTimeUnix == nil && older.cardScreenTimeoutSeconds == nil && older.keyId == "k")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ReaderConfiguration.self, from: Data(#"{"keyId":"k"}"#.utf8)) }
    }

    /// The host wrote its health as a dictionary of strings: the struct writes the same bytes.
    @Test func hostHealth() throws {
        let health = HostHealth(status: "ok", region: "EU", flavour: "sandbox", database: "ok", time: "2026-12-01T10:00:00Z")
        let dictionary = ["status": "ok", "region": "EU", "flavour": "sandbox", "database": "ok", "time": "2026-12-01T10:00:00Z"]
        #expect(try text(health) == (try text(dictionary)))
        #expect(try text(health) == #"{"database":"ok","flavour":"sandbox","region":"EU","status":"ok","time":"2026-12-01T10:00:00Z"}"#)
        try expectRoundTrip(health)
        // Another service's health (`{"service":"portal","status":"ok"}`) still decodes: the SDK then sees no region.
        let other = try JSONDecoder().decode(HostHealth.self, from: Data(#"{"service":"portal","status":"ok"}"#.utf8))
        #expect(other.region == nil && other.flavour == nil)
    }

    /// The host wrote `["statistics": …]`: the struct writes the same bytes.
    @Test func transactionsStatisticsList() throws {
        let groups = [
            TransactionsStatistics(
                description: "2026-11-29",
                items: [TransactionsStatisticsItem(fromDate: "2026-11-29T00:00:00Z", toDate: "2026-11-29T23:59:59.999Z", amount: 1250, count: 2)]),
            TransactionsStatistics(description: "2026-11-30", items: []),
        ]
        let list = TransactionsStatisticsList(statistics: groups)
        #expect(try text(list) == (try text(["statistics": groups])))
        #expect(try text(TransactionsStatisticsList(statistics: [])) == #"{"statistics":[]}"#)
        try expectRoundTrip(list)
    }

    @Test func paymentBodies() throws {
        #expect(try text(PaymentBodies.Reversal(isCancelledByUser: false)) == #"{"isCancelledByUser":false}"#)
        #expect(try JSONDecoder().decode(PaymentBodies.Reversal.self, from: Data("{}".utf8)).isCancelledByUser == nil)
        #expect(try text(PaymentBodies.DCC(dccOfferAccepted: true)) == #"{"dccOfferAccepted":true}"#)
        #expect(try text(PaymentBodies.Pin(pinPayload: "sealed.pin")) == #"{"pinPayload":"sealed.pin"}"#)
        #expect(try text(PaymentBodies.Receipt(receiptType: "qrCode", email: nil)) == #"{"receiptType":"qrCode"}"#)
        #expect(
            try text(PaymentBodies.Receipt(receiptType: "email", email: "customer@example.com"))
                == #"{"email":"customer@example.com","receiptType":"email"}"#)
        try expectRoundTrip(PaymentBodies.Receipt(receiptType: "email", email: "customer@example.com"))
        // The SDK's own encoder leaves an absent e-mail out too.
        #expect(String(decoding: try JSONEncoder().encode(PaymentBodies.Receipt(receiptType: "qrCode", email: nil)), as: UTF8.self) == #"{"receiptType":"qrCode"}"#)
    }
}
