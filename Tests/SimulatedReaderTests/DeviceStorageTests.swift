import Foundation
import SimulatedReader
import Testing

@Suite("Device storage defaults")
struct DeviceStorageTests {
    let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)

    @Test("a device's folders default to Application Support on Apple platforms, .sandbox of the working directory elsewhere")
    func root() {
        #if canImport(Darwin)
        #expect(DeviceStorage.root.path.hasSuffix("/Library/Application Support/TapSandbox"), "\(DeviceStorage.root.path)")
        #else
        #expect(DeviceStorage.root.standardizedFileURL.path == workingDirectory.appendingPathComponent(".sandbox").standardizedFileURL.path)
        #endif
        #expect(DeviceStorage.folder("devices/PAGBANK-tapon").path == DeviceStorage.root.path + "/devices/PAGBANK-tapon")
    }

    @Test("TAPSANDBOX_ENDPOINTS points a device at sandbox up's endpoints.json; without it, .sandbox of the working directory")
    func endpointsFile() {
        #expect(DeviceStorage.endpointsFile(environment: ["TAPSANDBOX_ENDPOINTS": "/Users/me/tapsandbox/.sandbox/endpoints.json"]).path
            == "/Users/me/tapsandbox/.sandbox/endpoints.json")
        let fallback = workingDirectory.appendingPathComponent(".sandbox/endpoints.json").path
        #expect(DeviceStorage.endpointsFile(environment: [:]).path == fallback)
        #expect(DeviceStorage.endpointsFile(environment: ["TAPSANDBOX_ENDPOINTS": ""]).path == fallback)
    }
}
