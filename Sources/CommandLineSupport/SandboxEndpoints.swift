import Foundation
import SandboxWire

/// A running `sandbox up`'s `endpoints.json` as a command finds it: where the file is and what it
/// names, with the usage errors `tapsim` and `webhooks` print.
///
/// ```swift
/// let endpoints = try SandboxEndpoints.load(explicit: nil)  // .sandbox/endpoints.json
/// let eu = try endpoints.host(for: "eu")                     // "http://127.0.0.1:8100"
/// ```
public struct SandboxEndpoints: Sendable {
    public var file: URL
    public var contents: EndpointsFile

    public init(file: URL, contents: EndpointsFile) {
        self.file = file
        self.contents = contents
    }

    /// Reads `explicit`, or `.sandbox/endpoints.json` in the working directory.
    ///
    /// `sandbox up` removes its file when it stops; one left by a `sandbox up` that was killed is
    /// known by its `sandbox.lock` beside it, which no running process holds any more.
    ///
    /// - Parameters:
    ///   - otherwise: What else the command accepts instead of the file, appended to the
    ///     missing-file message (`" (or --url URL)"`).
    ///   - directory: What a relative `explicit` and the default are read against (the working
    ///     directory when nil).
    /// - Throws: `UsageError` when the file is missing, is not an endpoints file, or was left by a
    ///   sandbox that is no longer running: the user has to start `sandbox up` or say where its file is.
    public static func load(explicit: String?, otherwise: String = "", relativeTo directory: URL? = nil) throws(UsageError) -> SandboxEndpoints {
        let file = URL(fileURLWithPath: explicit ?? EndpointsFile.defaultPath, relativeTo: directory).absoluteURL
        let endpoints: SandboxEndpoints
        do {
            endpoints = SandboxEndpoints(file: file, contents: try EndpointsFile.load(from: file))
        } catch .unreadable where explicit == nil {
            throw UsageError(
                "the sandbox is not running here (no .sandbox/endpoints.json): start 'sandbox up' or pass --endpoints FILE\(otherwise)")
        } catch .unreadable {
            throw UsageError("cannot read \(file.path): is the sandbox that writes it running ('sandbox up --data-dir …')?")
        } catch {
            throw UsageError(error.description)
        }
        let lock = file.deletingLastPathComponent().appendingPathComponent(lockFile)
        if ServiceLock.isHeld(lock) == false {
            let who = ServiceLock.holder(lock).map { " (\($0.command), PID \($0.pid))" } ?? ""
            throw UsageError(
                "the sandbox is not running: the sandbox up that wrote \(file.path)\(who) has stopped without removing it; start 'sandbox up' again")
        }
        return endpoints
    }

    /// The lock `sandbox up` holds in its data directory while it runs, beside `endpoints.json`.
    public static let lockFile = "sandbox.lock"

    /// The region id as the file spells it (case-insensitive match).
    public func region(_ name: String) throws(UsageError) -> String {
        guard let match = contents.region(matching: name) else {
            throw UsageError(
                "--env must be one of \(contents.environments.keys.sorted().joined(separator: ", ")) (from \(file.path)), not '\(name)'")
        }
        return match
    }

    /// The base URL of a region's host, as the file writes it.
    public func host(for region: String) throws(UsageError) -> String {
        try contents.environments[self.region(region)]!
    }
}
