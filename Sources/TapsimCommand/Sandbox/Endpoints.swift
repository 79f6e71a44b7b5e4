import CommandLineSupport
import Foundation
import SandboxWire

/// The URLs of a running `sandbox up`, read from the `endpoints.json` it writes, and where that file is.
///
/// ```swift
/// let endpoints = try Endpoints.load(explicit: nil)         // .sandbox/endpoints.json
/// let eu = try endpoints.host(for: "EU")                    // http://127.0.0.1:8100
/// ```
struct Endpoints: Sendable {
    var file: URL
    var contents: EndpointsFile

    /// Reads `explicit`, or `.sandbox/endpoints.json` in the working directory.
    ///
    /// - Throws: `UsageError` when the file is missing or is not an endpoints file: the user has to
    ///   start `sandbox up` or say where its file is.
    static func load(explicit: String?) throws(UsageError) -> Endpoints {
        let file = URL(fileURLWithPath: explicit ?? EndpointsFile.defaultPath)
        do {
            return Endpoints(file: file, contents: try EndpointsFile.load(from: file))
        } catch .unreadable where explicit == nil {
            throw UsageError("no .sandbox/endpoints.json here: start 'sandbox up' or pass --endpoints FILE")
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The region id as the file spells it (case-insensitive match).
    func region(_ name: String) throws(UsageError) -> String {
        guard let match = contents.region(matching: name) else {
            throw UsageError(
                "--env must be one of \(contents.environments.keys.sorted().joined(separator: ", ")) (from \(file.path)), not '\(name)'")
        }
        return match
    }

    func host(for region: String) throws(UsageError) -> URL {
        let id = try self.region(region)
        guard let url = URL(string: contents.environments[id]!) else { throw UsageError("\(file.path): bad URL for \(id)") }
        return url
    }
}
