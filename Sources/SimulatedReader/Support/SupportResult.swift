/// Whether a device can run Tap to Pay on iPhone, and if not, why.
///
/// ```swift
/// switch DeviceSupport.check(model: "iPhone11,8", osVersion: "17.0") {
/// case .supported: showTapToPay()
/// case .unsupported(let reason): hideTapToPay(because: reason.description)
/// }
/// ```
public enum SupportResult: Sendable, Equatable, Hashable {
    /// Tap to Pay on iPhone can run.
    case supported
    /// It cannot, for this reason.
    case unsupported(UnsupportedReason)

    /// `true` for ``supported``.
    public var isSupported: Bool { self == .supported }
}

/// Why a device cannot run Tap to Pay on iPhone.
public enum UnsupportedReason: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// An iPad, iPod or other Apple device: Tap to Pay runs on iPhone only.
    case notAnIPhone(model: String)
    /// A simulator (`arm64`, `x86_64`, `i386`): no NFC, no Secure Element. Only under requirements
    /// that turn ``DeviceSupport/Requirements/simulatorSupported`` off.
    case simulator(model: String)
    /// An iPhone older than the rule's minimum generation (iPhone XS and XR are `iPhone11,x`).
    case modelTooOld(model: String)
    /// Not a model identifier at all.
    case malformedModel(model: String)
    /// iOS older than the rule's minimum.
    case osTooOld(version: String, minimum: OSVersion)
    /// Not an iOS version at all.
    case malformedOSVersion(version: String)

    public var description: String {
        switch self {
        case .notAnIPhone(let model): "\(model) is not an iPhone; Tap to Pay runs on iPhone only"
        case .simulator(let model): "\(model) is a simulator, which has no NFC reader"
        case .modelTooOld(let model): "\(model) is older than iPhone 11"
        case .malformedModel(let model): "\"\(model)\" is not a device model identifier"
        case .osTooOld(let version, let minimum): "iOS \(version) is older than iOS \(minimum)"
        case .malformedOSVersion(let version): "\"\(version)\" is not an iOS version"
        }
    }
}
