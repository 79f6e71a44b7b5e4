import CardPayload

/// One card of the test-card catalogue (`sandbox-data/cards.json`).
///
/// ```swift
/// let catalogue = try CardCatalogue.load(from: sandboxData.appendingPathComponent("cards.json"))
/// let card = catalogue.card(named: "mc-pin")!
/// await reader.present(.tap(card, after: 5, pin: .correct))
/// ```
public struct TestCard: Sendable, Equatable, Hashable {
    /// How the host treats the card beyond its data.
    public enum Flag: String, Sendable, Equatable, Hashable, CaseIterable {
        /// The expiry is in the past: the kernel declines (`TERMINAL_DECLINED`).
        case expired
        /// The issuer always declines (response code 05).
        case decline
        /// The card breaks a rule of a card read on purpose (a PAN failing Luhn, country `ZZ`,
        /// a brand its PAN does not fit …): the catalogue takes it, the reader seals what it
        /// says, and the host refuses the read (`invalid_pan`, `invalid_card_country`,
        /// `brand_mismatch` …).
        case malformed
    }

    /// The PIN typed for a card that has none of its own (a PIN step after magic amount 42.65).
    public static let defaultPin = "1234"

    /// Short unique name, lowercase `[a-z0-9-]` (`visa`, `mc-pin`, `visa-us-dcc`).
    public var name: String
    /// Luhn-valid card number in the brand's test range.
    public var pan: String
    /// `YYMM`.
    public var expiry: String
    /// The scheme.
    public var brand: CardBrand
    /// Issuing country, ISO 3166-1 alpha-2; decides DCC on the host.
    public var country: String
    /// The EMV application identifier.
    public var aid: String
    /// The application label the card presents.
    public var applicationLabel: String
    /// How the cardholder is verified.
    public var cvm: CardholderVerification
    /// The card's PIN for `onlinePin` cards, `nil` otherwise.
    public var pin: String?
    /// The PAN sequence number, when the card has one.
    public var panSequence: String?
    /// Host-side behaviour.
    public var flags: [Flag]
    /// The card's EMV applications when it has more than one, in its priority order; the first is
    /// ``aid`` and ``applicationLabel``. Empty: the card has one application.
    public var applications: [CardApplication]

    /// A card; ``CardCatalogue/init(cards:)`` checks it.
    public init(
        name: String, pan: String, expiry: String, brand: CardBrand, country: String, aid: String,
        applicationLabel: String, cvm: CardholderVerification, pin: String? = nil, panSequence: String? = nil,
        flags: [Flag] = [], applications: [CardApplication] = []
    ) {
        self.name = name
        self.pan = pan
        self.expiry = expiry
        self.brand = brand
        self.country = country
        self.aid = aid
        self.applicationLabel = applicationLabel
        self.cvm = cvm
        self.pin = pin
        self.panSequence = panSequence
        self.flags = flags
        self.applications = applications
    }

    /// What the reader's kernel reads from this card: the `card` of a ``CardPayload``.
    public var cardData: CardData { cardData(paying: nil) }

    /// What the kernel reads when `application` (one of ``applications``) is selected; nil: the first.
    public func cardData(paying application: CardApplication?) -> CardData {
        CardData(
            pan: pan, expiry: expiry, brand: brand, country: country, aid: application?.aid ?? aid,
            applicationLabel: application?.applicationLabel ?? applicationLabel, cvm: cvm, panSequence: panSequence)
    }

    /// The applications a kernel offers for selection: ``applications``, or the card's one.
    public var selectableApplications: [CardApplication] {
        applications.isEmpty ? [CardApplication(aid: aid, applicationLabel: applicationLabel)] : applications
    }

    /// The PAN as receipts show it (`476173******0011`).
    public var maskedPan: String { MaskedPAN.mask(pan) }

    /// Whether the card carries `flag`.
    public func has(_ flag: Flag) -> Bool { flags.contains(flag) }
}

/// One EMV application of a card with several (a co-badged or credit-and-debit card).
public struct CardApplication: Sendable, Equatable, Hashable {
    /// The application identifier, 5 to 16 bytes of hex starting with the brand's RID.
    public var aid: String
    /// The label the card shows for it, 1 to 16 characters.
    public var applicationLabel: String

    public init(aid: String, applicationLabel: String) {
        self.aid = aid
        self.applicationLabel = applicationLabel
    }
}
