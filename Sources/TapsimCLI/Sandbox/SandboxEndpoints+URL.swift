import CommandLineSupport
import Foundation

extension SandboxEndpoints {
    /// A region's host as a URL, for the SDK's endpoint overrides.
    func hostURL(for region: String) throws(UsageError) -> URL {
        let id = try self.region(region)
        guard let url = URL(string: try host(for: id)) else { throw UsageError("\(file.path): bad URL for \(id)") }
        return url
    }
}
