/// Decides whether a device supports Tap to Pay on iPhone (`isTapToPaySupported()`,
/// `TapToPay.isSupported`).
///
/// The default rule combines the strictest statements of the seeds:
///
/// | rule | source |
/// |---|---|
/// | iPhone 11 or later (`iPhone12,1` and up; XS/XR `iPhone11,x` refused) | TapOnMobile (Worldline): "Proximity reader functionality is only available for iPhones 11 and above" |
/// | iOS 16.7 or later | Geopagos: "Run the app on iOS 16.7 or later" |
///
/// MONEI's SDK states "iPhone XS or newer with iOS 18.5 or later"; a MONEI-style facade
/// passes ``Requirements/monei``. Worldline's "released in the last 12 months" rule depends on
/// Apple's release calendar and is not modelled. iPads, iPods and anything that is not a model
/// identifier are unsupported. The iOS Simulator counts as a supported iPhone, since that is
/// where teams run their app against the sandbox, unless ``Requirements/simulatorSupported`` is
/// turned off.
///
/// ```swift
/// DeviceSupport.check(model: "iPhone12,1", osVersion: "16.7")   // .supported
/// DeviceSupport.check(model: "iPhone11,8", osVersion: "17.0")   // .unsupported(.modelTooOld)
/// DeviceSupport.check(model: "iPad13,1", osVersion: "17.0")     // .unsupported(.notAnIPhone)
/// DeviceSupport.check(model: "arm64", osVersion: "18.0")        // .supported: the iOS Simulator
/// ```
public enum DeviceSupport {
    /// The minimum hardware and software a rule asks for.
    public struct Requirements: Sendable, Equatable, Hashable {
        /// The lowest accepted major number of an `iPhoneN,M` identifier.
        public var minimumModelMajor: Int
        /// The lowest accepted iOS version.
        public var minimumOSVersion: OSVersion
        /// Whether the iOS Simulator (model `arm64`, `x86_64`, `i386`) counts as a supported iPhone
        /// when its iOS is recent enough. True in every rule of the sandbox: the Simulator is where
        /// teams run their app against it. Set it to `false` to see the Simulator refused, as a real
        /// SDK refuses it (no NFC reader).
        public var simulatorSupported: Bool

        /// A rule.
        ///
        /// - Parameters:
        ///   - minimumModelMajor: 12 means iPhone 11 (`iPhone12,1`); 11 admits XS and XR.
        ///   - minimumOSVersion: The lowest iOS version.
        ///   - simulatorSupported: Whether the iOS Simulator counts as a supported iPhone; `true` by default.
        public init(minimumModelMajor: Int, minimumOSVersion: OSVersion, simulatorSupported: Bool = true) {
            self.minimumModelMajor = minimumModelMajor
            self.minimumOSVersion = minimumOSVersion
            self.simulatorSupported = simulatorSupported
        }

        /// iPhone 11 (Worldline) and iOS 16.7 (Geopagos): the sandbox's default.
        public static let standard = Requirements(minimumModelMajor: 12, minimumOSVersion: OSVersion(16, 7))

        /// iPhone XS and iOS 18.5, as MONEI's `TapToPay.isSupported` documents.
        public static let monei = Requirements(minimumModelMajor: 11, minimumOSVersion: OSVersion(18, 5))
    }

    /// Model identifiers the iOS simulator reports.
    private static let simulatorModels: Set<String> = ["i386", "x86_64", "arm64"]

    /// Whether `model` on `osVersion` supports Tap to Pay on iPhone.
    ///
    /// The model is judged first, so an iPad on an old iOS reports ``UnsupportedReason/notAnIPhone(model:)``.
    ///
    /// - Parameters:
    ///   - model: A model identifier such as `iPhone15,2`.
    ///   - osVersion: `major[.minor[.patch]]`.
    ///   - requirements: The rule; ``Requirements/standard`` by default.
    /// - Returns: ``SupportResult/supported`` or the first reason it is not.
    public static func check(
        model: String, osVersion: String, requirements: Requirements = .standard
    ) -> SupportResult {
        if simulatorModels.contains(model) {
            guard requirements.simulatorSupported else { return .unsupported(.simulator(model: model)) }
            return check(osVersion: osVersion, requirements: requirements)
        }
        for other in ["iPad", "iPod", "Watch", "AppleTV", "Mac", "RealityDevice"] where model.hasPrefix(other) {
            if parseGeneration(model, prefix: other) != nil { return .unsupported(.notAnIPhone(model: model)) }
        }
        guard let generation = parseGeneration(model, prefix: "iPhone") else {
            return .unsupported(.malformedModel(model: model))
        }
        guard generation >= requirements.minimumModelMajor else { return .unsupported(.modelTooOld(model: model)) }
        return check(osVersion: osVersion, requirements: requirements)
    }

    /// Whether `osVersion` is recent enough for `requirements`.
    private static func check(osVersion: String, requirements: Requirements) -> SupportResult {
        guard let version = OSVersion(osVersion) else { return .unsupported(.malformedOSVersion(version: osVersion)) }
        guard version >= requirements.minimumOSVersion else {
            return .unsupported(.osTooOld(version: osVersion, minimum: requirements.minimumOSVersion))
        }
        return .supported
    }

    /// Whether `device` supports Tap to Pay on iPhone; see ``check(model:osVersion:requirements:)``.
    public static func check(_ device: Device, requirements: Requirements = .standard) -> SupportResult {
        check(model: device.model, osVersion: device.osVersion, requirements: requirements)
    }

    /// The major number of `<prefix>N,M`, or `nil` when `model` does not have that shape.
    private static func parseGeneration(_ model: String, prefix: String) -> Int? {
        guard model.hasPrefix(prefix) else { return nil }
        let numbers = model.dropFirst(prefix.count).split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2,
            numbers.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 3 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        return Int(numbers[0])
    }
}
