import Foundation
import Testing

/// The Python fixture server (`Tests/Fixtures/http_fixture.py`), one per suite run.
final class FixtureServer: Sendable {
    /// The server of the suite the current test runs in.
    @TaskLocal static var current: FixtureServer?

    let port: Int
    private let process: Process
    private let input: Pipe

    private init(port: Int, process: Process, input: Pipe) {
        self.port = port
        self.process = process
        self.input = input
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    static func start() throws -> FixtureServer {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/http_fixture.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        // The fixture exits when its stdin closes, so it dies with this process even on a crash.
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()

        var firstLine = Data()
        while !firstLine.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            firstLine.append(chunk)
        }
        let text = String(decoding: firstLine, as: UTF8.self)
        guard let line = text.split(separator: "\n").first,
              let port = Int(line.trimmingCharacters(in: .whitespaces)) else {
            process.terminate()
            throw FixtureError(message: "fixture did not print a port: \(text)")
        }
        return FixtureServer(port: port, process: process, input: input)
    }

    func stop() {
        process.terminate()
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
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
