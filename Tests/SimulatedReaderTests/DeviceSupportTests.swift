import SimulatedReader
import Testing

@Suite("Device support")
struct DeviceSupportTests {
    @Test(arguments: [
        // iPhone 11 and later (Worldline rule), iOS 16.7 and later (Geopagos rule).
        ("iPhone12,1", "16.7", SupportResult.supported),
        ("iPhone12,8", "17.0", .supported),
        ("iPhone17,3", "18.5.1", .supported),
        ("iPhone15,2", "16.10", .supported),
        ("iPhone11,8", "17.0", .unsupported(.modelTooOld(model: "iPhone11,8"))),
        ("iPhone11,2", "18.0", .unsupported(.modelTooOld(model: "iPhone11,2"))),
        ("iPhone10,3", "16.7", .unsupported(.modelTooOld(model: "iPhone10,3"))),
        ("iPhone12,1", "16.6.1", .unsupported(.osTooOld(version: "16.6.1", minimum: OSVersion(16, 7)))),
        ("iPhone14,5", "15.8", .unsupported(.osTooOld(version: "15.8", minimum: OSVersion(16, 7)))),
        ("iPad13,1", "17.0", .unsupported(.notAnIPhone(model: "iPad13,1"))),
        ("iPod9,1", "15.0", .unsupported(.notAnIPhone(model: "iPod9,1"))),
        // The iOS Simulator is where teams run their app: a supported iPhone, on a recent enough iOS.
        ("arm64", "17.0", .supported),
        ("x86_64", "18.2", .supported),
        ("arm64", "16.4", .unsupported(.osTooOld(version: "16.4", minimum: OSVersion(16, 7)))),
        ("iPhone", "17.0", .unsupported(.malformedModel(model: "iPhone"))),
        ("iPhone12", "17.0", .unsupported(.malformedModel(model: "iPhone12"))),
        ("iphone12,1", "17.0", .unsupported(.malformedModel(model: "iphone12,1"))),
        ("iPhone12,1,2", "17.0", .unsupported(.malformedModel(model: "iPhone12,1,2"))),
        ("", "17.0", .unsupported(.malformedModel(model: ""))),
        ("iPhone12,1", "seventeen", .unsupported(.malformedOSVersion(version: "seventeen"))),
        ("iPhone12,1", "17.", .unsupported(.malformedOSVersion(version: "17."))),
        ("iPhone12,1", "17.0.1.2", .unsupported(.malformedOSVersion(version: "17.0.1.2"))),
        ("iPhone12,1", "", .unsupported(.malformedOSVersion(version: ""))),
    ])
    func supportMatrix(model: String, os: String, expected: SupportResult) {
        #expect(DeviceSupport.check(model: model, osVersion: os) == expected)
    }

    @Test("a rule that refuses the Simulator refuses it as the real SDKs do, and still admits iPhones")
    func simulatorCanBeRefused() {
        var physicalOnly = DeviceSupport.Requirements.standard
        physicalOnly.simulatorSupported = false
        #expect(DeviceSupport.check(model: "arm64", osVersion: "18.0", requirements: physicalOnly) == .unsupported(.simulator(model: "arm64")))
        #expect(DeviceSupport.check(model: "iPhone15,2", osVersion: "18.0", requirements: physicalOnly) == .supported)
    }

    @Test("the device the code runs on is read from the system: its machine name and a version iOS-style")
    func currentDevice() {
        let device = Device.current
        #expect(!device.model.isEmpty)
        #expect(OSVersion(device.osVersion) != nil, "\(device.osVersion)")
    }

    @Test func moneiRequirementsAdmitXSButNeedIOS18_5() {
        #expect(DeviceSupport.check(model: "iPhone11,2", osVersion: "18.5", requirements: .monei) == .supported)
        #expect(DeviceSupport.check(model: "iPhone15,2", osVersion: "18.4", requirements: .monei)
            == .unsupported(.osTooOld(version: "18.4", minimum: OSVersion(18, 5))))
    }

    @Test func anUnsupportedReaderRefusesToPrepareAndSaysWhy() async {
        let listener = RecordingListener()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), device: Device(model: "iPhone11,8", osVersion: "17.0"))
        #expect(!reader.isTapToPaySupported)
        await reader.addListener(listener)
        let expected = ReaderError.unsupported(.modelTooOld(model: "iPhone11,8"))
        await #expect(throws: expected) { try await reader.prepare(token: "token-1") }
        #expect(listener.events == [.error(expected)])
        // Clearing an unsupported reader succeeds at once (Geopagos).
        try? await reader.clear()
        #expect(await reader.state == .unprepared)
    }

    @Test func versionsCompareByComponent() throws {
        #expect(try #require(OSVersion("16.10")) > OSVersion(16, 7))
        #expect(try #require(OSVersion("17")) == OSVersion(17, 0, 0))
        #expect(OSVersion("v17") == nil)
    }
}
