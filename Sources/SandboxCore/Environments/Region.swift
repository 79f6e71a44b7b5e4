import SandboxWire

/// One documented acquirer environment (EU, ANZ, Payone DE …) with its four flavours.
///
/// A region is what `sandbox-host --env <id>` serves: its currency and country, the
/// languages of the SDK's screens, the real hosts of each flavour, amount limits and the
/// feature switches. Regions come from `sandbox-data/environments.json` through
/// ``EnvironmentCatalogue``; decoding one checks every field.
///
/// ```swift
/// let eu = catalogue.region("EU")!
/// eu.flavours[.sandbox].hostname        // "sandbox-wl-emea.softpos.eu"
/// eu.view(flavour: .sandbox)            // what GET /v1/environment answers
/// ```
public struct Region: Codable, Sendable, Equatable, Identifiable {
    /// The stable id hosts are started with, upper case: `EU`, `PAYONE_DE`, `MBANK`.
    public var id: String
    /// A human name for pages and logs.
    public var name: String
    /// The ISO 3166-1 alpha-2 country the region's merchants trade in.
    public var country: String
    /// The currency amounts are in by default.
    public var currency: Currency
    /// The languages the SDK's screens offer here, English always among them.
    public var languages: [TapOnMobileLanguage]
    /// The help-desk number terminals show, or nil; the sandbox invents none.
    public var supportPhone: String?
    /// Where each flavour lives and how long its sessions last.
    public var flavours: Flavours
    /// Amount caps in minor units.
    public var limits: Limits
    /// APMs, BLIK, DCC, tips, refunds and reversals.
    public var features: Features
    /// Whose API the region's host speaks: Worldline's TapOnMobile surface (the seed's table), or a
    /// vendor of another seed (MONEI). `sandbox up` gives vendor regions the ports after the inbox.
    public var vendor: Vendor

    public init(
        id: String, name: String, country: String, currency: Currency, languages: [TapOnMobileLanguage],
        supportPhone: String? = nil, flavours: Flavours, limits: Limits, features: Features, vendor: Vendor = .worldline
    ) {
        self.vendor = vendor
        self.id = id
        self.name = name
        self.country = country
        self.currency = currency
        self.languages = languages
        self.supportPhone = supportPhone
        self.flavours = flavours
        self.limits = limits
        self.features = features
    }

    /// The region as one flavour's host describes itself.
    ///
    /// - Parameter flavour: which deployment the host pretends to be.
    /// - Returns: the body of `GET /v1/environment`.
    public func view(flavour: Flavour) -> EnvironmentView {
        let settings = flavours[flavour]
        return EnvironmentView(
            id: id, name: name, flavour: flavour, hostname: settings.hostname,
            sdkEnvironment: settings.sdkEnvironment, sessionLengthSeconds: settings.sessionLengthSeconds,
            country: country, currency: currency, languages: languages, supportPhone: supportPhone,
            limits: limits, features: features)
    }
}

/// Whose API surface a region's host serves (`"vendor"` in `environments.json`, `worldline` when absent).
public enum Vendor: String, CaseIterable, Codable, Sendable {
    /// Worldline's TapOnMobile terminal, merchant and back-office APIs: every region of the seed's table.
    case worldline
    /// MONEI's REST API (`/v1/pos/auth-token`, `/v1/payments/{id}` …) beside them (docs/monei.md).
    case monei
    /// PagBank's Tap On: partner apps activate devices with their `appKey` (`POST
    /// /terminal/v1/partner-activations`), on the terminal API every host has (docs/pagbank.md).
    case pagbank
    /// Geopagos' Payments SDK: a merchant's backend buys reader tokens (`POST
    /// /merchant/v1/reader-tokens`), the device trades one for a session (`POST
    /// /terminal/v1/reader-sessions`) and pays on the terminal API (docs/geopagos.md).
    case geopagos
}
