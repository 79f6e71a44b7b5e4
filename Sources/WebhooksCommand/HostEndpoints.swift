import CommandLineSupport
import Foundation
import SandboxWire

/// The host URLs of a running `sandbox up`, from the `endpoints.json` it writes.
struct HostEndpoints {
    var file: URL
    var contents: EndpointsFile

    static func load(explicit: String?) throws(UsageError) -> HostEndpoints {
        let file = URL(fileURLWithPath: explicit ?? EndpointsFile.defaultPath)
        do {
            return HostEndpoints(file: file, contents: try EndpointsFile.load(from: file))
        } catch .unreadable where explicit == nil {
            throw UsageError("no .sandbox/endpoints.json here: start 'sandbox up' or pass --endpoints FILE (or --url URL)")
        } catch {
            throw UsageError(error.description)
        }
    }

    func host(for region: String) throws(UsageError) -> String {
        guard let match = contents.region(matching: region) else {
            throw UsageError(
                "--env must be one of \(contents.environments.keys.sorted().joined(separator: ", ")) (from \(file.path)), not '\(region)'")
        }
        return contents.environments[match]!
    }
}
