import Foundation
import SandboxTestSupport
import Testing

/// Where the services find their folders from outside the checkout, and one sandbox per data directory.
@Suite("sandbox up outside the checkout, one per data directory", .blocksThreads)
struct DataDirectoryTests {
    /// Our environment without `TAPSANDBOX_HOME`: the executables must find their folders themselves.
    static var withoutHome: [String: String] {
        var environment = childEnvironment()
        environment["TAPSANDBOX_HOME"] = nil
        return environment
    }

    /// `name arguments…` run by its name through `PATH`, as a shell does (`argv[0]` is then the bare name).
    static func byName(_ name: String, _ arguments: [String], path bin: URL, in directory: URL) throws -> ChildProcess {
        var environment = withoutHome
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, environment: environment, workingDirectory: directory)
    }

    @Test("started by name from another folder, through symlinks on PATH, every service finds sandbox-data, web and openapi")
    func symlinkFromElsewhere() throws {
        let elsewhere = TemporaryDirectory()
        let bin = elsewhere.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in ["sandbox", "sandbox-host", "portal-sim", "wallet-sim", "webhook-inbox", "tapsim"] {
            try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent(name), withDestinationURL: try builtExecutable(name))
        }
        let dryRuns: [(String, [String])] = [
            ("sandbox", ["up", "--dry-run"]), ("sandbox-host", ["--env", "EU", "--dry-run"]), ("portal-sim", ["--dry-run"]),
            ("wallet-sim", ["--dry-run"]), ("webhook-inbox", ["--dry-run"]),
        ]
        for (name, arguments) in dryRuns {
            let result = try Self.byName(name, arguments, path: bin, in: elsewhere.url).finish(within: 20)
            #expect(result.exited && result.status == 0, "\(name) \(arguments): \(result)")
        }

        // The whole sandbox, for real, and a tapsim through the same folder of links.
        let data = elsewhere.file("state")
        let base = try freeConsecutivePorts(15)
        let up = try Self.byName("sandbox", ["up", "--base-port", String(base), "--data-dir", data.path], path: bin, in: elsewhere.url)
        try #require(up.waitForOutput("Endpoints:", seconds: 20), "\(up.finish(within: 5))")
        let status = try Self.byName(
            "tapsim", ["--endpoints", data.appendingPathComponent("endpoints.json").path, "--json", "register", "quick", "--pin", "2468"],
            path: bin, in: elsewhere.url
        ).finish(within: 30)
        #expect(status.exited && status.status == 0, "\(status)")
        up.signal(SIGINT)
        #expect(up.finish(within: 10).status == 0)
    }

    @Test("make install puts the executables and their folders under a prefix, where they find them from anywhere")
    func makeInstall() throws {
        let prefix = TemporaryDirectory()
        // The debug build stands in for the release one `make install` builds first (`-o release`).
        let installed = try SpawnedProcess.run(
            "make", ["-o", "release", "install", "PREFIX=\(prefix.url.path)", "BIN_DIR=\(Paths.products.path)"], in: Paths.repository,
            timeout: 120)
        try #require(installed.exited && installed.status == 0, "\(installed)")
        for folder in ["sandbox-data", "web", "openapi"] {
            #expect(FileManager.default.fileExists(atPath: prefix.file("share/tapsandbox/\(folder)").path))
        }
        let elsewhere = TemporaryDirectory()
        for (name, arguments) in [("sandbox", ["up", "--dry-run"]), ("sandbox-host", ["--env", "EU", "--dry-run"])] {
            let result = try Self.byName(name, arguments, path: prefix.file("bin"), in: elsewhere.url).finish(within: 20)
            #expect(result.exited && result.status == 0, "\(name): \(result)")
        }
        // tapsim says which sandbox-data it found.
        let endpoints = elsewhere.file("endpoints.json")
        try Data(#"{"environments":{"EU":"http://127.0.0.1:9"}}"#.utf8).write(to: endpoints)
        let tapsim = try Self.byName(
            "tapsim", ["--endpoints", endpoints.path, "--dry-run", "--json", "status"], path: prefix.file("bin"), in: elsewhere.url
        ).finish(within: 20)
        #expect(tapsim.status == 0, "\(tapsim)")
        let found = try #require(tapsim.json?["sandboxData"] as? String, "\(tapsim)")
        #expect(
            URL(fileURLWithPath: found).resolvingSymlinksInPath() == prefix.file("share/tapsandbox/sandbox-data").resolvingSymlinksInPath(),
            "\(found)")
    }

    @Test("a second sandbox up on the same data directory is refused, naming the running one; a clean stop removes endpoints.json")
    func oneSandboxPerDataDirectory() throws {
        let data = TemporaryDirectory()
        let (first, base) = try startSandboxUp(dataDirectory: data.url)
        let pid = first.process.pid
        let otherPorts = try freeConsecutivePorts(15)

        let second = try ChildProcess(
            builtExecutable("sandbox"), ["up", "--base-port", String(otherPorts), "--data-dir", data.url.path]
        ).finish(within: 15)
        #expect(second.exited && second.status == 2, "\(second)")
        #expect(
            second.stderr.contains("sandbox up (PID \(pid), ports \(base)–\(base + 14)) is already running on \(data.url.path)"),
            "\(second)")
        #expect(second.stderr.contains("another --data-dir"), "\(second)")
        #expect(!isAccepting(otherPorts), "the refused sandbox must not listen")

        // A host of one of its regions is refused too; one of a region it does not hold is not.
        let host = try ChildProcess(
            builtExecutable("sandbox-host"), ["--env", "EU", "--port", String(otherPorts), "--data-dir", data.url.path]
        ).finish(within: 15)
        #expect(host.exited && host.status == 2 && host.stderr.contains("sandbox up (PID \(pid)"), "\(host)")
        #expect(host.stderr.contains("(it holds eu.lock)"), "\(host)")

        // The endpoints it wrote are live while it runs, and gone after a clean stop.
        let endpoints = data.file("endpoints.json")
        let tapsim = try builtExecutable("tapsim")
        let running = try ChildProcess(tapsim, ["--endpoints", endpoints.path, "--json", "status"]).finish(within: 30)
        #expect(running.status == 0, "\(running)")
        first.signal(SIGINT)
        #expect(first.finish(within: 10).status == 0)
        #expect(!FileManager.default.fileExists(atPath: endpoints.path), "endpoints.json stays after a clean stop")
        let stopped = try ChildProcess(tapsim, ["--endpoints", endpoints.path, "status"]).finish(within: 30)
        #expect(stopped.status == 2 && stopped.stderr.contains("is the sandbox that writes it running"), "\(stopped)")

        // Free again: the next sandbox up on the directory starts.
        let (again, _) = try startSandboxUp(dataDirectory: data.url)
        // Killed, it leaves its endpoints.json, which clients now know for a stopped sandbox's.
        again.signal(SIGKILL)
        _ = again.finish(within: 10)
        #expect(FileManager.default.fileExists(atPath: endpoints.path))
        let stale = try ChildProcess(tapsim, ["--endpoints", endpoints.path, "status"]).finish(within: 30)
        #expect(stale.status == 2, "\(stale)")
        #expect(
            stale.stderr.contains("the sandbox is not running: the sandbox up that wrote \(endpoints.path) (sandbox up, PID \(again.process.pid)) has stopped"),
            "\(stale)")
    }
}
