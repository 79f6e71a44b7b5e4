/// The app's location permission, in the three states the TapOnMobile seed distinguishes.
///
/// iOS's `.restricted` counts as ``denied``; `.authorizedWhenInUse` as ``authorized``.
public enum LocationAuthorization: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The user has not answered yet: `requestLocation()` asks.
    case notDetermined
    /// Denied or restricted: only the Settings app can change it.
    case denied
    /// Location may be used while the app is in use.
    case authorized
}
