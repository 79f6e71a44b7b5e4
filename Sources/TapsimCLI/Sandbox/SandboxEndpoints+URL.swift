import CommandLineSupport
import Foundation

extension SandboxEndpoints {
    /// A region's host as a URL, for the SDK's endpoint overrides.
    func hostURL(for region: String) throws(UsageError) -> URL {
        let id = try self.region(region)
        guard let url = URL(string: try host(for: id)) else { throw UsageError("\(file.path): bad URL for \(id)") }
        return url
    }

    /// A region's device folder when `--device` names none: `devices/<region>` in the data
    /// directory that holds this `endpoints.json` (`.sandbox/devices/EU` by default; beside the
    /// file `--endpoints` names otherwise), so two sandboxes' devices never mix.
    func deviceDirectory(for region: String) -> URL {
        file.deletingLastPathComponent().appendingPathComponent("devices", isDirectory: true).appendingPathComponent(region, isDirectory: true)
            .standardizedFileURL
    }
}
