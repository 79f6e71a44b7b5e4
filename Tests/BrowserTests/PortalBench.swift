import Foundation
import HostTestSupport
import Launcher
import Testing
import TestSupport

/// The whole sandbox in this process, its endpoints file, and `tapsim` runs against it.
final class PortalBench {
    let running: InProcessSandbox
    let endpoints: URL
    let work: URL

    init() throws {
        running = try InProcessSandbox()
        endpoints = try running.sandbox.writeEndpoints()
        work = running.directory.file("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    deinit { running.stop() }

    var portal: String { running.sandbox.portal.url }

    /// `tapsim --json ARGUMENTS…` against this sandbox; its one JSON object.
    func tapsim(_ arguments: String...) throws -> [String: Any] {
        let output = try SpawnedProcess.run(
            try builtExecutable("tapsim"),
            ["--endpoints", endpoints.path, "--sandbox-data", Paths.sandboxData.path, "--json"] + arguments, in: work,
            timeout: 60)
        return try #require(output.json, "tapsim \(arguments.joined(separator: " ")): \(output)")
    }
}
