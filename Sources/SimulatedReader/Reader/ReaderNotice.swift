/// An informational notice from Apple's reader, as Geopagos' `TapToPayReaderNotice` lists them.
///
/// Every notice reaches the app's `onReaderNotice` handler. The seed calls them informative;
/// the sandbox also decides which ones stop the operation in progress, because the real
/// conditions behind them do (a blocked merchant cannot prepare, a read needs NFC):
///
/// | notice | at prepare | at read |
/// |---|---|---|
/// | `merchantBlocked`, `deviceBanned`, `entitlementMissing`, `osUpdateRequired` | fails | fails |
/// | `nfcDisabled` | informs | fails |
/// | `connectivityIssue` | informs | informs |
///
/// ```swift
/// await reader.inject(.nfcDisabled, at: .read)
/// ```
public enum ReaderNotice: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// Apple has blocked the merchant account.
    case merchantBlocked
    /// Apple has blocked the device.
    case deviceBanned
    /// Apple detected a connectivity problem.
    case connectivityIssue
    /// NFC is disabled while attempting to read.
    case nfcDisabled
    /// The device needs an iOS update.
    case osUpdateRequired
    /// The app is missing the Tap to Pay on iPhone entitlement.
    case entitlementMissing

    /// Where a scripted notice is raised.
    public enum Stage: String, Sendable, Equatable, Hashable, CaseIterable {
        /// During ``Reader/prepare(token:)``.
        case prepare
        /// During ``Reader/read(amount:currency:region:terminalId:readerKey:serverTimeOffset:onEvent:)``
        /// and ``Reader/testRead(onEvent:)``.
        case read
    }

    /// Whether this notice ends the operation at `stage` (see the table above).
    ///
    /// - Parameter stage: Where the notice arrives.
    /// - Returns: `true` when the prepare or read fails with ``ReaderError/notice(_:)``.
    public func stops(at stage: Stage) -> Bool {
        switch self {
        case .merchantBlocked, .deviceBanned, .entitlementMissing, .osUpdateRequired: true
        case .nfcDisabled: stage == .read
        case .connectivityIssue: false
        }
    }
}
