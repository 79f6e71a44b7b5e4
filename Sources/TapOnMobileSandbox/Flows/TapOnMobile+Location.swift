import Foundation
import SimulatedReader

/// The location helpers. Location is mandatory for transactions: a denied permission stops them.
extension TapOnMobile {
    /// Whether the app may use the location (iOS `.authorizedWhenInUse`).
    public func isLocationAuthorized() -> Bool {
        runtime.withLockedValue { $0.locationAuthorization } == .authorized
    }

    /// Whether location is denied or restricted: only the Settings app can change that.
    public func isLocationDenied() -> Bool {
        runtime.withLockedValue { $0.locationAuthorization } == .denied
    }

    /// Asks the user for permission if they have not answered, then waits for a fix.
    ///
    /// - Returns: `Success`, `location(.denied)` or `location(.timeout)` (no fix within 15 s).
    public func requestLocation() async -> Result<Success, TapOnMobileError> {
        await with(context) { context in
            guard let location = context.reader.location else { return .success(Success()) }
            do throws(ReaderError) {
                _ = try await location.requestLocation()
                await refreshLocationAuthorization()
                return .success(Success())
            } catch {
                await refreshLocationAuthorization()
                return .failure(.reader(error))
            }
        }
    }

    /// Copies the location service's permission, so the synchronous helpers can answer.
    func refreshLocationAuthorization() async {
        guard let location = reader.location else { return }
        let authorization = await location.authorization
        runtime.withLockedValue { $0.locationAuthorization = authorization }
    }

    /// The country of the last fix, sent with a sale and a validation as `countryCode`.
    func currentCountry() async -> String? {
        await reader.location?.lastFix?.countryCode
    }
}
