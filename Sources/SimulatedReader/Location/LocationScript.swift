import Foundation

/// What the simulated user and GPS do about location.
///
/// ```swift
/// // Permission already granted, a fix in Belgium after 1 s:
/// let script = LocationScript.authorized(country: "BE")
/// // First launch: the user is asked, allows after 3 s, but no fix ever arrives:
/// let lost = LocationScript(authorization: .notDetermined, answer: .authorized, answerAfter: 3, fix: .never)
/// ```
public struct LocationScript: Sendable, Equatable, Hashable {
    /// When (and whether) a fix arrives after it is requested.
    public enum Fix: Sendable, Equatable, Hashable {
        /// A fix in `country` after `after` seconds; 15 s or more is a timeout.
        case country(String, after: TimeInterval)
        /// No fix: the request times out after 15 s.
        case never
    }

    /// The permission before anyone asks.
    public var authorization: LocationAuthorization
    /// What the user answers when asked (``LocationAuthorization/authorized`` or ``LocationAuthorization/denied``).
    public var answer: LocationAuthorization
    /// How long the user takes to answer; the SDKs wait without a limit.
    public var answerAfter: TimeInterval
    /// Whether Info.plist has `NSLocationWhenInUseUsageDescription`; without it iOS never
    /// asks and MONEI's prepare throws `locationDenied` at once.
    public var hasUsageDescription: Bool
    /// The GPS.
    public var fix: Fix

    /// A script.
    public init(
        authorization: LocationAuthorization = .notDetermined,
        answer: LocationAuthorization = .authorized,
        answerAfter: TimeInterval = 2,
        hasUsageDescription: Bool = true,
        fix: Fix = .country("BE", after: 1)
    ) {
        self.authorization = authorization
        self.answer = answer
        self.answerAfter = answerAfter
        self.hasUsageDescription = hasUsageDescription
        self.fix = fix
    }

    /// Permission granted earlier and a fix in `country` after `fixAfter` seconds.
    public static func authorized(country: String, fixAfter: TimeInterval = 1) -> LocationScript {
        LocationScript(authorization: .authorized, fix: .country(country, after: fixAfter))
    }
}
