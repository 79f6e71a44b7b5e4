import Foundation

/// The phone the simulated reader runs on: its model identifier and iOS version.
///
/// The identifier is the one `uname` reports on a real device (`iPhone15,2` for an
/// iPhone 14 Pro), not the marketing name.
///
/// ```swift
/// let device = Device(model: "iPhone15,2", osVersion: "17.5.1")
/// DeviceSupport.check(device)   // .supported
/// ```
public struct Device: Sendable, Equatable, Hashable {
    /// The model identifier, for example `iPhone12,1` (iPhone 11).
    public var model: String
    /// The iOS version, for example `17.5.1`.
    public var osVersion: String

    /// A device.
    ///
    /// - Parameters:
    ///   - model: The model identifier.
    ///   - osVersion: The iOS version as `major[.minor[.patch]]`.
    public init(model: String, osVersion: String) {
        self.model = model
        self.osVersion = osVersion
    }

    /// An iPhone 14 Pro on iOS 17.5, supported by every rule: the default simulated phone.
    public static let standard = Device(model: "iPhone15,2", osVersion: "17.5")

    /// The device this code runs on: the model `uname` reports (`iPhone15,2` on that iPhone,
    /// `arm64` or `x86_64` in the iOS Simulator and on a computer) and the system's version.
    ///
    /// ```swift
    /// configuration.device = .current   // judge the real phone, or the Simulator, rather than a simulated one
    /// ```
    public static var current: Device {
        var system = utsname()
        _ = uname(&system)
        let model = withUnsafeBytes(of: &system.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return Device(model: model, osVersion: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)")
    }
}
