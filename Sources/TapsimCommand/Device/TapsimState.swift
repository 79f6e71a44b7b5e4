import Foundation

/// What `tapsim` keeps in the device directory beside the SDK's own `device.json`, so that
/// `login`, `prepare` and `pay` work as separate invocations: `tapsim.json`.
///
/// The SDK holds its session and its prepared reader in memory only (as an app does while it
/// runs). A `tapsim` invocation is one short app launch, so tapsim remembers that the user
/// logged in (with the secure code, to log in again at the next launch) and when that session
/// ends, and that the reader was prepared (so the next launch prepares it again, as an app
/// does when it becomes active). `logout`, a new registration and `unregister` clear it.
///
/// ```json
/// {"session": {"terminalId": "EU-T0101", "pin": "2468", "expiresAtUnix": 1795956502.5},
///  "prepared": {"terminalId": "EU-T0101"}}
/// ```
struct TapsimState: Codable, Equatable, Sendable {
    struct Session: Codable, Equatable, Sendable {
        var terminalId: String
        /// When the host said the session ends (host clock, seconds since 1970).
        var expiresAtUnix: Double
    }

    struct Prepared: Codable, Equatable, Sendable {
        var terminalId: String
    }

    var session: Session?
    var prepared: Prepared?

    static let fileName = "tapsim.json"

    static func load(from directory: URL) -> TapsimState {
        let file = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path),
            let state = try? JSONDecoder().decode(TapsimState.self, from: data)
        else { return TapsimState() }
        return state
    }

    /// Writes the file, or removes it when empty. (The session token itself is the SDK's, kept in
    /// its own device.json; no secure code is ever written.)
    func save(to directory: URL) throws {
        let file = directory.appendingPathComponent(Self.fileName)
        if session == nil, prepared == nil {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
