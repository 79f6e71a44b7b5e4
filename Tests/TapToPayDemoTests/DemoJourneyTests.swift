import Foundation
import HostTestSupport
import SandboxTestSupport
import SandboxTesting
import SandboxWire
import TapOnMobileSandbox
import Testing

/// The sample app (Examples/TapToPayDemo.swiftpm) driven as its UI tests drive it: its store, the
/// layer under its screens (each screen's button calls one of these methods), from a seeded
/// device saved as a snapshot, with the customer at the card screen queued on the sandbox. The
/// store's source is the app's own (App/, symlinked); only the SDK's configuration gets the test's
/// last word (`DemoStore(configure:)`). An app package holds no UI-test target, so this is where
/// the sample's journey runs on every `make test`.
@Suite("The sample app's checkout, from a seed and a snapshot", .vendorApp("TapOnMobile.shared"))
struct DemoJourneyTests {
    @Test("a seeded device logs in; a queued customer's wrong PIN is declined, then the app's own card pays; the snapshot brings the start back")
    func checkout() async throws {
        try await withSandbox(regions: ["EU"]) { sandbox in
            let library = TestSandbox(
                TestSandbox.Endpoints(
                    environments: sandbox.endpoints, portal: URL(string: sandbox.sandbox.portal.url),
                    wallet: URL(string: sandbox.sandbox.wallet.url), inbox: URL(string: sandbox.sandbox.inbox.url)))
            let folder = TemporaryDirectory()

            // What every test of the app starts from: a device registered on EU-T0101 (secure code
            // 2468), its folder where the app's SDK reads it, saved once.
            let seed = SandboxSeed(regions: ["EU": HostSeed(devices: [HostSeed.Device(terminalId: "EU-T0101", secureCode: "2468")])])
            let device = try #require(try await library.seed(seed).first?.devices.first)
            try DeviceFolder.write(device, region: "EU", to: folder.file("device"))
            try await library.snapshot("demo-registered")

            // The seeded device's folder reaches the app as a UI test's launchEnvironment would hand it
            // (only the sample's store reads this variable, and this suite holds its one turn).
            setenv("TAPSANDBOX_DEVICE_FOLDER", folder.file("device").path, 1)
            defer { unsetenv("TAPSANDBOX_DEVICE_FOLDER") }
            let endpoints = sandbox.endpoints
            let store = await DemoStore { configuration in
                configuration.endpointOverrides = endpoints
                configuration.endpointsFile = nil
                configuration.clock = ManualReaderClock()
            }
            await store.start()
            #expect(await store.stage == .loggedOut, "registered by the seed")
            await store.login(pin: "2468")
            let message = await store.message
            #expect(await store.stage == .loggedIn, "\(message ?? "")")
            #expect(await store.terminal?.terminalId == "EU-T0101")
            #expect(await eventually { await store.readerReady }, "the reader prepares after login")

            // The customer at the next card screen, scripted by the test: a Mastercard with a wrong PIN.
            try await library.queueCustomer(.tap("mc-pin", pin: "wrong"), terminalId: "EU-T0101", region: "EU")
            await store.pay(amount: 1250)
            let declined = await store.cardResult
            #expect(declined?.transactionStatus == .DECLINED && declined?.responseCode == "55", "\(String(describing: declined))")
            #expect(declined?.cardType == "MASTERCARD")
            // The queue is empty: the customer the app's screen picked (a Visa tap) pays.
            await store.pay(amount: 1250)
            let paid = await store.cardResult
            #expect(paid?.transactionStatus == .CLEARED && paid?.cardType == "VISA", "\(String(describing: paid))")
            await store.loadHistory()
            #expect(await store.history.count == 2)

            // The next test: back to the start. The login came after the save, so the restored host
            // no longer knows that session; the device is still registered, and its history empty.
            try await library.restore("demo-registered")
            await store.start()
            #expect(await store.stage == .loggedOut)
            await store.login(pin: "2468")
            await store.loadHistory()
            #expect(await store.stage == .loggedIn)
            #expect(await store.history.isEmpty)
        }
    }
}
