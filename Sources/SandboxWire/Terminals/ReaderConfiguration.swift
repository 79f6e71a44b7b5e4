/// The answer to `POST /terminal/v1/reader/prepare` (under the seed's `prepareDevice`): the key
/// the simulated reader seals card data with, and the host's clock, so a payload's `readAt` is
/// written on the host's time.
///
/// The SDK needs the key, its id and the server time; the timeouts and `serverTimeUnix` may be
/// absent (an older host left `serverTimeUnix` out: then `serverTime` is read).
///
/// ```json
/// {"cardScreenTimeoutSeconds":40,"keyId":"eu-reader-1","payloadLifetimeSeconds":120,"pinTimeoutSeconds":60,
///  "readerKey":"<32 bytes in base64>","serverTime":"2026-12-01T10:00:00Z","serverTimeUnix":1796119200}
/// ```
public struct ReaderConfiguration: Codable, Sendable, Equatable {
    /// The region's AES-256 reader key in base64.
    public let readerKey: String
    public let keyId: String
    public let serverTime: String
    public let serverTimeUnix: Double?
    /// How long the card screen waits for a tap.
    public let cardScreenTimeoutSeconds: Int?
    /// How old a sealed card payload may be when the host opens it.
    public let payloadLifetimeSeconds: Int?
    /// How long the reader waits for an online PIN.
    public let pinTimeoutSeconds: Int?

    public init(
        readerKey: String, keyId: String, serverTime: String, serverTimeUnix: Double?, cardScreenTimeoutSeconds: Int?,
        payloadLifetimeSeconds: Int?, pinTimeoutSeconds: Int?
    ) {
        self.readerKey = readerKey
        self.keyId = keyId
        self.serverTime = serverTime
        self.serverTimeUnix = serverTimeUnix
        self.cardScreenTimeoutSeconds = cardScreenTimeoutSeconds
        self.payloadLifetimeSeconds = payloadLifetimeSeconds
        self.pinTimeoutSeconds = pinTimeoutSeconds
    }
}
