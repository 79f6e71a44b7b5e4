import CardPayload

/// How a read (or a PIN step) ended: a sealed payload for the host, or the reader outcome
/// the device reports instead, with the events the card screen went through.
///
/// ```swift
/// let result = try await reader.read(amount: 1250, currency: "EUR", region: "EU",
///                                    terminalId: "EU-T0101", readerKey: key)
/// if let payload = result.sealedPayload {
///     body["cardPayload"] = payload
/// } else if let outcome = result.outcome {
///     body["readerOutcome"] = outcome.rawValue
/// }
/// ```
public struct ReadResult: Sendable, Equatable {
    /// The two ways a read ends.
    public enum Value: Sendable, Equatable {
        /// A card (or PIN) was read and sealed.
        case payload(SealedRead)
        /// No card: cancelled, timed out or sent to the background.
        case outcome(ReaderOutcome)
    }

    /// How it ended.
    public let value: Value
    /// What the card screen did, in order.
    public let events: [ReaderEvent]

    /// A result.
    public init(value: Value, events: [ReaderEvent]) {
        self.value = value
        self.events = events
    }

    /// The sealed read, when there is one.
    public var read: SealedRead? {
        if case .payload(let read) = value { read } else { nil }
    }

    /// The base64 sealed payload to send as `cardPayload` (or `pinPayload`), when there is one.
    public var sealedPayload: String? { read?.sealed }

    /// The reader outcome to send as `readerOutcome`, when no card was read.
    public var outcome: ReaderOutcome? {
        if case .outcome(let outcome) = value { outcome } else { nil }
    }
}

/// A sealed payload and what the device may know about it without opening it.
public struct SealedRead: Sendable, Equatable, Hashable {
    /// Base64 of `nonce ‖ ciphertext ‖ tag`.
    public let sealed: String
    /// The payload's `readId`.
    public let readId: String
    /// The payload's `readAt`: milliseconds since 1970 on the host's clock.
    public let readAt: Int64
    /// The card's brand; `nil` for a PIN payload.
    public let brand: CardBrand?
    /// The masked PAN for the app's UI; `nil` for a PIN payload.
    public let maskedPan: String?
    /// The EMV application the card paid with (`A0000000031010`); `nil` for a PIN payload.
    public let aid: String?
    /// Its label (`VISA CREDITO`); `nil` for a PIN payload.
    public let applicationLabel: String?

    /// A sealed read.
    public init(
        sealed: String, readId: String, readAt: Int64, brand: CardBrand?, maskedPan: String?, aid: String? = nil,
        applicationLabel: String? = nil
    ) {
        self.sealed = sealed
        self.readId = readId
        self.readAt = readAt
        self.brand = brand
        self.maskedPan = maskedPan
        self.aid = aid
        self.applicationLabel = applicationLabel
    }

    /// The last `readAt` (host milliseconds) at which the host still accepts the payload:
    /// 120 s after the read.
    public var validUntil: Int64 { readAt + ReaderTimeouts.payloadLifetimeMilliseconds }
}
