/// The result of presenting Apple's "How to Tap" merchant education (Geopagos
/// `TapToPayDiscoveryResult`).
///
/// ```swift
/// if case .fail(.osUpdateRequired, _) = await reader.presentEducation() {
///     askMerchantToUpdateIOS()
/// }
/// ```
public enum EducationResult: Sendable, Equatable, Hashable {
    /// The education screens were shown.
    case success
    /// They were not; `message` says why, for the log.
    case fail(EducationError, message: String?)
}

/// Why merchant education could not be shown (Geopagos `TapToPayDiscoveryError`).
public enum EducationError: Sendable, Equatable, Hashable {
    /// The device runs an iOS version that cannot show it.
    case osUpdateRequired
    /// Anything else; the message says what.
    case unknown
}
