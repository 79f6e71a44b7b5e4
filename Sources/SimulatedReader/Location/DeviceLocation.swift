import CardPayload
import Foundation

/// The device's location service, scripted: permission, the permission prompt, and fixes
/// that arrive (or not) on the reader's clock.
///
/// It offers the TapOnMobile helpers (`isLocationAuthorized()`, `isLocationDenied()`,
/// `requestLocation()`) and MONEI's rules: the first request waits up to 15 s for a fix and
/// then fails with ``ReaderError/locationTimeout``; a denied permission, or an app without a
/// usage description, fails with ``ReaderError/locationDenied``.
///
/// ```swift
/// let location = DeviceLocation(clock: clock, script: .authorized(country: "BE"))
/// let fix = try await location.requestLocation()   // fix.countryCode == "BE"
/// ```
public actor DeviceLocation {
    private let clock: any ReaderClock
    private var script: LocationScript

    /// The current permission.
    public private(set) var authorization: LocationAuthorization

    /// The latest fix, or `nil` before the first one.
    public private(set) var lastFix: LocationFix?

    /// How long a request waits for a fix: 15 s (MONEI seed).
    public static let fixTimeout = ReaderTimeouts.locationFix

    /// A location service.
    ///
    /// - Parameters:
    ///   - clock: The reader's clock; fixes and timeouts are measured on it.
    ///   - script: What the user and the GPS do.
    public init(clock: any ReaderClock, script: LocationScript) {
        self.clock = clock
        self.script = script
        self.authorization = script.authorization
    }

    /// Replaces the script, for example to move the device or stop the GPS mid-test.
    ///
    /// The current permission stays; the new script's `answer` applies the next time the
    /// user is asked.
    public func update(_ script: LocationScript) {
        self.script = script
    }

    /// `true` when location may be used (TapOnMobile `isLocationAuthorized()`).
    public var isLocationAuthorized: Bool { authorization == .authorized }

    /// `true` when denied or restricted (TapOnMobile `isLocationDenied()`).
    public var isLocationDenied: Bool { authorization == .denied }

    /// Shows the permission prompt if the user has not answered, and waits for the answer.
    ///
    /// - Returns: The permission afterwards; still ``LocationAuthorization/notDetermined`` when
    ///   the app has no usage description (iOS shows no prompt then).
    @discardableResult
    public func requestAuthorization() async -> LocationAuthorization {
        guard authorization == .notDetermined, script.hasUsageDescription else { return authorization }
        await clock.sleep(for: script.answerAfter)
        // Another request may have been answered while this one waited.
        if authorization == .notDetermined {
            authorization = script.answer == .authorized ? .authorized : .denied
        }
        return authorization
    }

    /// Asks for permission if needed, then waits up to 15 s for a fix.
    ///
    /// - Returns: The fix, also kept as ``lastFix``.
    /// - Throws: ``ReaderError/locationDenied`` when permission is denied or cannot be asked;
    ///   ``ReaderError/locationTimeout`` when no fix arrives within 15 s on the clock.
    public func requestLocation() async throws(ReaderError) -> LocationFix {
        if authorization == .notDetermined {
            guard script.hasUsageDescription else { throw .locationDenied }
            await requestAuthorization()
        }
        guard authorization == .authorized else { throw .locationDenied }
        switch script.fix {
        case .country(let country, let after) where after < Self.fixTimeout:
            await clock.sleep(for: max(0, after))
            let fix = LocationFix(countryCode: country, at: clock.now())
            lastFix = fix
            return fix
        case .country, .never:
            await clock.sleep(for: Self.fixTimeout)
            throw .locationTimeout
        }
    }
}
