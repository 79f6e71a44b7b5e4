import Foundation
import SandboxWire
import SimulatedReader
import Testing

/// The one step every device library takes from its host's reader configuration.
@Suite struct ReaderSealingTests {
    static func configuration(key: String, serverTime: String = "2026-12-07T10:00:00.000Z", unix: Double? = nil) -> ReaderConfiguration {
        ReaderConfiguration(
            readerKey: key, keyId: "EU-0123456789", serverTime: serverTime, serverTimeUnix: unix, cardScreenTimeoutSeconds: nil,
            payloadLifetimeSeconds: nil, pinTimeoutSeconds: nil)
    }

    @Test func theKeyAndHowFarTheHostsClockIsAhead() throws {
        let key = Data(Array(0..<32) as [UInt8]).base64EncodedString()
        let now = try #require(WireTime.date(from: "2026-12-07T09:59:00.000Z"))
        let sealing = try #require(ReaderSealing(Self.configuration(key: key), now: now))
        #expect(sealing.key == Array(0..<32) && sealing.offset == 60, "the host is a minute ahead")
        // The precise server time wins over the text.
        let precise = try #require(ReaderSealing(Self.configuration(key: key, unix: now.timeIntervalSince1970 - 0.5), now: now))
        #expect(precise.offset == -0.5)
    }

    @Test func aShortKeyOrAnUnreadableTimeIsRefused() {
        #expect(ReaderSealing(Self.configuration(key: Data(count: 16).base64EncodedString()), now: Date()) == nil)
        #expect(ReaderSealing(Self.configuration(key: "not base64"), now: Date()) == nil)
        #expect(ReaderSealing(Self.configuration(key: Data(count: 32).base64EncodedString(), serverTime: "yesterday"), now: Date()) == nil)
    }
}
