import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// The whole sandbox in this process, its endpoints file, and `tapsim` runs against it.
final class PortalBench {
    let running: InProcessSandbox
    let endpoints: URL
    let work: URL

    init(controlKey: String? = nil) throws {
        running = try InProcessSandbox(controlKey: controlKey)
        endpoints = try running.sandbox.writeEndpoints()
        work = running.directory.file("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    deinit { running.stop() }

    var portal: String { running.sandbox.portal.url }

    /// `tapsim --json ARGUMENTS…` against this sandbox; its one JSON object.
    func tapsim(_ arguments: String...) throws -> [String: Any] {
        let output = try tapsimOutput(arguments)
        return try #require(output.json, "tapsim \(arguments.joined(separator: " ")): \(output)")
    }

    /// The run itself, for a command that is meant to fail.
    func tapsimOutput(_ arguments: String...) throws -> ProcessOutput {
        try tapsimOutput(arguments)
    }

    /// In this process, as the executable would run it in `work` (the tapsim suites test the executable itself).
    func tapsimOutput(_ arguments: [String]) throws -> ProcessOutput {
        runInProcess(["--endpoints", endpoints.path, "--sandbox-data", Paths.sandboxData.path, "--json"] + arguments, in: work, timeout: 60)
    }
}
