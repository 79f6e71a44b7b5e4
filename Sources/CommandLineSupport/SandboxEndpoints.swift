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

    /// Reads `explicit`, or `.sandbox/endpoints.json` in the working directory.
    ///
    /// - Parameter otherwise: What else the command accepts instead of the file, appended to the
    ///   missing-file message (`" (or --url URL)"`).
    /// - Throws: `UsageError` when the file is missing or is not an endpoints file: the user has to
    ///   start `sandbox up` or say where its file is.
    public static func load(explicit: String?, otherwise: String = "") throws(UsageError) -> SandboxEndpoints {
        let file = URL(fileURLWithPath: explicit ?? EndpointsFile.defaultPath)
        do {
            return SandboxEndpoints(file: file, contents: try EndpointsFile.load(from: file))
        } catch .unreadable where explicit == nil {
            throw UsageError("no .sandbox/endpoints.json here: start 'sandbox up' or pass --endpoints FILE\(otherwise)")
        } catch {
            throw UsageError(error.description)
        }
    }

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
