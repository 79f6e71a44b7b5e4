import LockedValue
import Foundation
import SandboxWire

/// What the device keeps between launches, as `device.json` in the device directory (mode
/// 0600: it holds the device secret and the session token).
///
/// ```json
/// {"installationId": "6f1c…", "registration": {"region": "EU", "terminalId": "EU-T0101",
///  "deviceSecret": "ds_…", "registeredAt": "2026-11-29T12:00:00Z"},
///  "supportNumber": "SN-12345678", "language": "english", "lastTransaction": {…}}
/// ```
struct DeviceState: Codable, Sendable, Equatable {
    /// The device's registration on one region's host.
    struct Registration: Codable, Sendable, Equatable {
        var region: String
        var terminalId: String
        var deviceSecret: String
        var registeredAt: String?
    }

    /// The `deviceId` the host knows this installation by; made once.
    var installationId: String
    var registration: Registration?
    /// `SN-` + 8 digits, stable per installation.
    var supportNumber: String?
    var language: TapOnMobileLanguage?
    /// The last cleared transaction (the seed's local `getLastTransaction()`).
    var lastTransaction: TransactionDetail?
    /// The session of the last login, kept as a real SDK keeps its token in the keychain, so an
    /// app (or `tapsim`) started again is still logged in until the host ends the session.
    var session: StoredSession?

    struct StoredSession: Codable, Sendable, Equatable {
        var region: String
        var token: String
        var expiresAtUnix: Double
    }
}

/// Reads and writes ``DeviceState`` in one directory; a copy stays in memory.
final class DeviceStore: Sendable {
    let directory: URL
    private let makeIdentifier: @Sendable () -> String
    private let cache = LockedValueBox<DeviceState?>(nil)

    init(directory: URL, makeIdentifier: @escaping @Sendable () -> String) {
        self.directory = directory
        self.makeIdentifier = makeIdentifier
    }

    var file: URL { directory.appendingPathComponent("device.json") }

    /// The state, loaded (or created with a new installation id) on first use.
    func load() throws(TapOnMobileError) -> DeviceState {
        try update { _ in }
    }

    /// Changes the state and writes it at once (atomically: a crash never leaves half a file).
    @discardableResult
    func update(_ change: (inout DeviceState) -> Void) throws(TapOnMobileError) -> DeviceState {
        do {
            return try cache.withLockedValue { cached in
                var state = try cached ?? readOrCreate()
                let before = state
                change(&state)
                if state != before || !FileManager.default.fileExists(atPath: file.path) { try write(state) }
                cached = state
                return state
            }
        } catch let error as TapOnMobileError {
            throw error
        } catch {
            throw .initialization(
                InitializationError(.storageUnavailable, message: "\(file.path): \(error.localizedDescription)"))
        }
    }

    private func readOrCreate() throws -> DeviceState {
        if FileManager.default.fileExists(atPath: file.path) {
            let data = try Data(contentsOf: file)
            do {
                return try JSONDecoder().decode(DeviceState.self, from: data)
            } catch {
                throw TapOnMobileError.initialization(
                    InitializationError(.storageUnavailable, message: "\(file.path) is not a device state file: \(error)"))
            }
        }
        return DeviceState(installationId: makeIdentifier())
    }

    /// Owner-only (0600, in a folder made 0700): the file holds the device secret and the session token.
    private func write(_ state: DeviceState) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try OwnerOnlyFile.write(try encoder.encode(state), to: file)
    }
}
