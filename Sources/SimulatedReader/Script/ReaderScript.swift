import Foundation

/// Everything around the reader that a real device leaves to Apple, the merchant and the
/// customer, written down so a test or `tapsim` plays it the same way every time.
///
/// Queues are consumed in order; an empty queue means the friendly default (token valid,
/// terms accepted, no notice, nobody taps).
///
/// ```swift
/// var script = ReaderScript()
/// script.tokenVerdicts = [.expired]          // the first token is refused as expired
/// script.termsResponses = [.deny, .accept]   // the merchant rejects Apple's terms once
/// script.notices[.read] = [.nfcDisabled]     // the next read fails: NFC is off
/// script.cards = [.tap(visa, after: 5)]
/// let reader = Reader(clock: clock, script: script)
/// ```
public struct ReaderScript: Sendable, Equatable {
    /// Apple's verdict on each token supplied, in order; empty means valid. An empty token
    /// is always invalid.
    public var tokenVerdicts: [TokenVerdict]
    /// What the merchant does in each Apple terms sheet, in order; empty means accept.
    public var termsResponses: [TermsResponse]
    /// Notices raised at the next operation of each stage, then forgotten.
    public var notices: [ReaderNotice.Stage: [ReaderNotice]]
    /// One script per read, in order; empty means nobody taps.
    public var cards: [CardScript]
    /// The next failures of merchant education, in order; empty means it succeeds.
    public var educationFailures: [EducationError]
    /// How long the security checks of a prepare take on the clock (the last 40 %).
    public var preparationSeconds: TimeInterval
    /// How long ``Reader/clear()`` takes on the clock.
    public var clearSeconds: TimeInterval

    /// A script; every queue empty by default.
    public init(
        tokenVerdicts: [TokenVerdict] = [],
        termsResponses: [TermsResponse] = [],
        notices: [ReaderNotice.Stage: [ReaderNotice]] = [:],
        cards: [CardScript] = [],
        educationFailures: [EducationError] = [],
        preparationSeconds: TimeInterval = 4,
        clearSeconds: TimeInterval = 0.5
    ) {
        self.tokenVerdicts = tokenVerdicts
        self.termsResponses = termsResponses
        self.notices = notices
        self.cards = cards
        self.educationFailures = educationFailures
        self.preparationSeconds = preparationSeconds
        self.clearSeconds = clearSeconds
    }
}
