import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

// What the tests read from sandbox-data: region ids (environments.json) and merchants, terminals
// and keys (merchants.json, through TestSupport's `MerchantsFile`). Nothing here is hard-coded:
// the fixtures may change under the tests.

/// The region ids of `sandbox-data/environments.json`, in file order (the walk runs on each).
let regionIDs: [String] = RegionFacts.all.map(\.id)

extension InProcessSandbox {
    /// The host of `region` with its fixtures.
    func host(_ region: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Host {
        Host(
            service: Service(name: region, baseURL: try url(of: region, sourceLocation: sourceLocation)),
            fixture: try fixtures.region(region, sourceLocation: sourceLocation))
    }
}
