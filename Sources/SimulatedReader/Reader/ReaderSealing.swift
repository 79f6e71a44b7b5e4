import Foundation
import SandboxWire

/// What a device takes from its host's reader configuration (`POST /terminal/v1/reader/prepare`,
/// MONEI's `POST /v1/pos/prepare`) to seal card data: the region's reader key, and how far the
/// host's clock is from the device's, since a payload's `readAt` is on the host's clock.
public struct ReaderSealing: Sendable, Equatable {
    /// The AES-256 reader key (32 bytes).
    public var key: [UInt8]
    /// Seconds to add to the device's clock to read the host's.
    public var offset: TimeInterval

    /// The keys of `configuration`, measured against the device's time `now`; nil when the key is
    /// not 32 bytes of base64 or the server time is unreadable.
    public init?(_ configuration: ReaderConfiguration, now: Date) {
        guard let key = Data(base64Encoded: configuration.readerKey).map(Array.init), key.count == 32,
            let serverTime = configuration.serverTimeUnix ?? WireTime.date(from: configuration.serverTime)?.timeIntervalSince1970
        else { return nil }
        self.key = key
        offset = serverTime - now.timeIntervalSince1970
    }
}
