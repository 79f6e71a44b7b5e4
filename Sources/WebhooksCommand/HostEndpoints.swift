import CommandLineSupport
import Foundation

/// The host URLs of a running `sandbox up`, from the `endpoints.json` it writes.
struct HostEndpoints {
    var file: URL
    var environments: [String: String]

    static func load(explicit: String?) throws(UsageError) -> HostEndpoints {
        let file = URL(fileURLWithPath: explicit ?? ".sandbox/endpoints.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            if explicit != nil { throw UsageError("cannot read \(file.path)") }
            throw UsageError("no .sandbox/endpoints.json here: start 'sandbox up' or pass --endpoints FILE (or --url URL)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let environments = object["environments"] as? [String: String]
        else {
            throw UsageError("\(file.path) is not an endpoints file (written by 'sandbox up')")
        }
        return HostEndpoints(file: file, environments: environments)
    }

    func host(for region: String) throws(UsageError) -> String {
        guard let match = environments.keys.first(where: { $0.caseInsensitiveCompare(region) == .orderedSame }) else {
            throw UsageError(
                "--env must be one of \(environments.keys.sorted().joined(separator: ", ")) (from \(file.path)), not '\(region)'")
        }
        return environments[match]!
    }
}
