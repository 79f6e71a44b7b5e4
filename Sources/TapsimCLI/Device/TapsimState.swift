import Foundation

/// What `tapsim` keeps in the device directory beside the SDK's own `device.json`, so that
/// `login`, `prepare` and `pay` work as separate invocations: `tapsim.json` (mode 0600).
///
/// The SDK keeps the registration, the device secret and the session token in `device.json`
/// (as a real SDK keeps its token in the keychain), and its prepared reader in memory only (as
/// an app does while it runs). A `tapsim` invocation is one short app launch, so tapsim
/// remembers when the session it logged in ends (to tell an ended session from a live one),
/// that the reader was prepared (so the next launch prepares it again, as an app does when it
/// becomes active), the challenge code of the last `register begin` (for `register confirm`)
/// and the transaction the last `pay` left waiting for the DCC choice (for `dcc`). No secure
/// code is ever written. `logout`, a new registration and `unregister` clear the session.
///
/// ```json
/// {"session": {"terminalId": "EU-T0101", "expiresAtUnix": 1795956502.5},
///  "prepared": {"terminalId": "EU-T0101"}, "challengeCode": "RPCS-G4MK", "pendingDCC": "01J…"}
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
    /// The challenge code of the last `register begin`, until a registration completes.
    var challengeCode: String?
    /// The transaction the last `pay` left at `DCC_REQUIRED`, until `dcc` finishes it.
    var pendingDCC: String?

    static let fileName = "tapsim.json"

    static func load(from directory: URL) -> TapsimState {
        let file = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path),
            let state = try? JSONDecoder().decode(TapsimState.self, from: data)
        else { return TapsimState() }
        return state
    }

    /// Writes the file, or removes it when empty.
    func save(to directory: URL) throws {
        let file = directory.appendingPathComponent(Self.fileName)
        if self == TapsimState() {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
