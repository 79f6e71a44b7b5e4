import Foundation
import SandboxTestSupport
import Testing

/// The Python fixture server (`Tests/Fixtures/http_fixture.py`), one per suite run, started as a
/// TestSupport `ChildProcess` (it exits by itself when this process is gone).
final class FixtureServer: Sendable {
    /// The server of the suite the current test runs in.
    @TaskLocal static var current: FixtureServer?

    let port: Int
    private let child: ChildProcess

    private init(port: Int, child: ChildProcess) {
        self.port = port
        self.child = child
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    static func start() throws -> FixtureServer {
        let script = Paths.repository.appendingPathComponent("Tests/Fixtures/http_fixture.py")
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path], environment: ProcessInfo.processInfo.environment)
        _ = child.waitForOutput("\n", seconds: 15)
        let text = child.stdout
        guard let line = text.split(separator: "\n").first,
              let port = Int(line.trimmingCharacters(in: .whitespaces)) else {
            child.stop()
            throw FixtureError(message: "fixture did not print a port: \(text) \(child.stderr)")
        }
        return FixtureServer(port: port, child: child)
    }

    func stop() {
        child.stop()
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Starts the fixture server once around a whole suite and stops it at the end.
struct FixtureServerTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try FixtureServer.start()
        defer { server.stop() }
        try await FixtureServer.$current.withValue(server) {
            try await function()
        }
    }
}

extension Trait where Self == FixtureServerTrait {
    /// Runs the suite against a fresh `http_fixture.py` on a loopback port.
    static var fixtureServer: Self { FixtureServerTrait() }
}
