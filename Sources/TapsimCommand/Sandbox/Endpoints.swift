import CommandLineSupport
import Foundation

/// The URLs of a running `sandbox up`, read from the `endpoints.json` it writes.
///
/// ```swift
/// let endpoints = try Endpoints.load(explicit: nil)         // .sandbox/endpoints.json
/// let eu = try endpoints.host(for: "EU")                    // http://127.0.0.1:8100
/// ```
struct Endpoints: Sendable {
    var file: URL
    var portal: String?
    var wallet: String?
    /// Region id → base URL of its environment host.
    var environments: [String: String]

    /// Reads `explicit`, or `.sandbox/endpoints.json` in the working directory.
    ///
    /// - Throws: `UsageError` when the file is missing or is not an endpoints file: the user has to
    ///   start `sandbox up` or say where its file is.
    static func load(explicit: String?) throws(UsageError) -> Endpoints {
        let file = URL(fileURLWithPath: explicit ?? ".sandbox/endpoints.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            if explicit != nil { throw UsageError("cannot read \(file.path)") }
            throw UsageError("no .sandbox/endpoints.json here: start 'sandbox up' or pass --endpoints FILE")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let environments = object["environments"] as? [String: String]
        else {
            throw UsageError("\(file.path) is not an endpoints file (written by 'sandbox up')")
        }
        return Endpoints(
            file: file, portal: object["portal"] as? String, wallet: object["wallet"] as? String,
            environments: environments)
    }

    /// The region id as the file spells it (case-insensitive match).
    func region(_ name: String) throws(UsageError) -> String {
        guard let match = environments.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else {
            throw UsageError(
                "--env must be one of \(environments.keys.sorted().joined(separator: ", ")) (from \(file.path)), not '\(name)'")
        }
        return match
    }

    func host(for region: String) throws(UsageError) -> URL {
        let id = try self.region(region)
        guard let url = URL(string: environments[id]!) else { throw UsageError("\(file.path): bad URL for \(id)") }
        return url
    }
}
