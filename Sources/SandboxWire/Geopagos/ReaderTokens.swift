/// `POST /merchant/v1/reader-tokens` on a Geopagos host: a merchant's backend buys the token its
/// app's `TapToPayReaderInstaller` hands to the reader (docs/geopagos.md). Every field may be left
/// out; the ones given must match the host's terminal configuration.
///
/// ```json
/// {"terminalId": "GEOPAGOS-T0102", "country": "AR", "currency": "ARS"}
/// ```
public struct ReaderTokenRequest: Codable, Sendable, Equatable {
    /// A terminal of the merchant; its first terminal when left out.
    public let terminalId: String?
    /// The country the app sells in (ISO 3166-1 alpha-2); the region's when left out.
    public let country: String?
    /// The currency it sells in (ISO 4217); the region's when left out.
    public let currency: String?

    public init(terminalId: String? = nil, country: String? = nil, currency: String? = nil) {
        self.terminalId = terminalId
        self.country = country
        self.currency = currency
    }
}

/// The answer: the token and the terminal configuration it stands for, valid 24 hours on the
/// host's clock.
///
/// ```json
/// {"token": "eyJhbGciOi…", "terminalId": "GEOPAGOS-T0101", "merchantId": "GEOPAGOS-M01",
///  "country": "AR", "currency": "ARS", "expiresAt": "2026-12-04T10:00:00Z"}
/// ```
public struct ReaderToken: Codable, Sendable, Equatable {
    public let token: String
    public let terminalId: String
    public let merchantId: String
    public let country: String
    public let currency: String
    public let expiresAt: String

    public init(token: String, terminalId: String, merchantId: String, country: String, currency: String, expiresAt: String) {
        self.token = token
        self.terminalId = terminalId
        self.merchantId = merchantId
        self.country = country
        self.currency = currency
        self.expiresAt = expiresAt
    }
}

/// `POST /terminal/v1/reader-sessions`: the device presents a reader token and gets a session of
/// the terminal API on the token's terminal (the device is registered there, taking the terminal
/// over from any other device).
public struct ReaderSessionRequest: Codable, Sendable, Equatable {
    public let readerToken: String
    /// The app installation's id, as every device call names it.
    public let deviceId: String
    /// The phone's model identifier (`iPhone15,2`).
    public let deviceModel: String

    public init(readerToken: String, deviceId: String, deviceModel: String) {
        self.readerToken = readerToken
        self.deviceId = deviceId
        self.deviceModel = deviceModel
    }
}

/// The answer: a session as `doLogin` gives one, with the token's terminal configuration.
///
/// ```json
/// {"sessionToken": "st_…", "region": "GEOPAGOS", "terminalId": "GEOPAGOS-T0101", "merchantId": "GEOPAGOS-M01",
///  "country": "AR", "currency": "ARS", "expiresAt": "2026-12-03T10:10:00Z", "expiresAtUnix": 1796292600,
///  "tokenExpiresAt": "2026-12-04T10:00:00Z"}
/// ```
public struct ReaderSession: Codable, Sendable, Equatable {
    public let sessionToken: String
    /// The host's region id, which card reads are sealed for (`GEOPAGOS`).
    public let region: String
    public let terminalId: String
    public let merchantId: String
    public let country: String
    public let currency: String
    public let expiresAt: String
    public let expiresAtUnix: Double
    public let tokenExpiresAt: String

    public init(
        sessionToken: String, region: String, terminalId: String, merchantId: String, country: String, currency: String,
        expiresAt: String, expiresAtUnix: Double, tokenExpiresAt: String
    ) {
        self.sessionToken = sessionToken
        self.region = region
        self.terminalId = terminalId
        self.merchantId = merchantId
        self.country = country
        self.currency = currency
        self.expiresAt = expiresAt
        self.expiresAtUnix = expiresAtUnix
        self.tokenExpiresAt = tokenExpiresAt
    }
}
