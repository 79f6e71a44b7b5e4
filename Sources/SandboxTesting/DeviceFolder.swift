import Foundation
import SandboxWire

/// A device's folder as the TapOnMobile SDK keeps it (`device.json`, mode 0600: it holds the
/// device secret and the session token) and, for a logged-in device, as `tapsim` leaves it after
/// `login` and `prepare` (`tapsim.json`: when the session ends, the reader prepared), so that
/// `tapsim pay` pays at once. What the folder held before is replaced.
public enum DeviceFolder {
    /// Writes the folder of a seeded device (``TestSandbox/seed(_:)`` answers it) for `region`.
    public static func write(_ device: SeedResult.Device, region: String, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let expires = device.sessionExpiresAtUnix {
            let tapsim: [String: Any] = [
                "session": ["terminalId": device.terminalId, "expiresAtUnix": expires], "prepared": ["terminalId": device.terminalId],
            ]
            try write(tapsim, to: folder.appendingPathComponent("tapsim.json"))
        } else {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("tapsim.json"))
        }
        var state: [String: Any] = [
            "installationId": device.installationId,
            "registration": [
                "region": region, "terminalId": device.terminalId, "deviceSecret": device.deviceSecret, "registeredAt": device.registeredAt,
            ],
        ]
        if let token = device.sessionToken, let expires = device.sessionExpiresAtUnix {
            state["session"] = ["region": region, "token": token, "expiresAtUnix": expires]
        }
        try write(state, to: folder.appendingPathComponent("device.json"))
    }

    /// Writes `object` as JSON, mode 0600 from the start, in one rename (never half a file).
    private static func write(_ object: [String: Any], to file: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid())")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw TestSandboxError(status: nil, code: nil, message: "cannot write \(temporary.path)", field: nil)
        }
        if rename(temporary.path, file.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw TestSandboxError(status: nil, code: nil, message: "cannot write \(file.path): \(reason)", field: nil)
        }
    }
}
