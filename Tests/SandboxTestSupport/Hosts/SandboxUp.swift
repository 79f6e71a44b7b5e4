import Foundation
import Testing

/// `sandbox up`, the built executable, as a child on consecutive free ports (the layout the README
/// describes: region i on base + i, then the portal, the wallet and the inbox), its state and
/// `endpoints.json` in `dataDirectory`. Retries on another base when a port was taken meanwhile.
///
/// ```swift
/// let (sandbox, base) = try startSandboxUp(dataDirectory: data.url)
/// defer { _ = sandbox.finish(within: 1) }
/// ```
///
/// - Parameter arguments: more options for `sandbox up` (`--host 0.0.0.0`).
/// - Parameter basePort: the ports to listen on (those of a sandbox that stopped, to start it again
///   as it was); by default free ones are picked.
public func startSandboxUp(
    dataDirectory: URL, basePort: Int? = nil, arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
) throws -> (child: ChildProcess, basePort: Int) {
    let count = RegionFacts.all.count + 3
    var lastFailure = ""
    for _ in 0..<3 {
        let base = try basePort ?? freeConsecutivePorts(count)
        let child = try ChildProcess(
            builtExecutable("sandbox", sourceLocation: sourceLocation),
            ["up", "--base-port", String(base), "--data-dir", dataDirectory.path] + arguments)
        if child.waitForOutput("Endpoints:", seconds: 15) { return (child, base) }
        let finished = child.finish(within: 5)
        lastFailure = finished.description
        // Only a port taken between choosing and binding is worth another try.
        guard finished.stderr.contains("cannot listen"), basePort == nil else { break }
    }
    Issue.record("sandbox up did not print its table with “Endpoints:” within 15 s:\n\(lastFailure)", sourceLocation: sourceLocation)
    throw HarnessError("sandbox up did not start")
}
