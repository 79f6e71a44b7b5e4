import Foundation
import SandboxCore
import TestSupport
import Testing

// Helpers for running the real, built executables as a user would.

/// The executables `Package.swift` declares as products (`.executable(name: "…")`).
///
/// Read from the manifest's text, which is quicker than `swift package dump-package` and is
/// what a contributor edits: a compose service may only run one of these.
let packageExecutables: Set<String> = {
    let manifest = (try? String(contentsOf: Paths.repository.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    let pattern = try! NSRegularExpression(pattern: #"\.executable\(\s*name:\s*"([^"]+)""#)
    let range = NSRange(manifest.startIndex..., in: manifest)
    return Set(pattern.matches(in: manifest, range: range).map { String(manifest[Range($0.range(at: 1), in: manifest)!]) })
}()

/// The catalogue the executables read (the checkout's `sandbox-data/environments.json`).
func loadCatalogue() throws -> EnvironmentCatalogue {
    try EnvironmentCatalogue.load(contentsOf: Paths.sandboxData.appendingPathComponent("environments.json"))
}

/// A built executable, or a failed requirement telling how to build it.
func executable(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(
        Paths.executable(name),
        "\(name) is not built in \(Paths.products.path); run `swift build --build-tests` first",
        sourceLocation: sourceLocation)
}

/// The environment a child gets: ours, with `TAPSANDBOX_HOME` at the checkout, as the image sets it
/// to `/app`. The children run in a scratch folder so only that variable can lead them to the data.
func childEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["TAPSANDBOX_HOME"] = Paths.repository.path
    return environment
}

/// How a finished child ended.
struct Finished: CustomStringConvertible {
    var status: Int32
    /// True when it exited (as opposed to dying of a signal).
    var exited: Bool
    var timedOut: Bool
    var stdout: String
    var stderr: String

    var description: String {
        let how = timedOut ? "timed out" : exited ? "exited \(status)" : "died of signal \(status)"
        return "\(how)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
    }
}

/// A child process whose standard output and error go to files, so a test can poll them
/// without pipes filling up.
final class Child {
    let folder = TemporaryDirectory()
    private let outputFile: URL
    private let errorFile: URL
    private let process: SpawnedProcess

    init(_ executable: URL, _ arguments: [String], workingDirectory: URL? = nil) throws {
        outputFile = folder.file("stdout")
        errorFile = folder.file("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process = try SpawnedProcess(
            executable: executable.path, arguments: arguments, environment: childEnvironment(),
            directory: (workingDirectory ?? folder.url).path, stdout: outputFile.path, stderr: errorFile.path)
    }

    var stdout: String { Self.read(outputFile) }
    var stderr: String { Self.read(errorFile) }

    /// A capture file's text; a failed read says why instead of passing for empty output.
    private static func read(_ file: URL) -> String {
        do {
            return try String(contentsOf: file, encoding: .utf8)
        } catch {
            return "(cannot read \(file.lastPathComponent): \(error), errno \(errno) \(String(cString: strerror(errno))))"
        }
    }

    /// Waits until standard output contains `text`; false when the child exits or time runs out first.
    func waitForOutput(_ text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if stdout.contains(text) { return true }
            if !process.isRunning { return stdout.contains(text) }
            usleep(20_000)
        }
        return false
    }

    func signal(_ signal: Int32) {
        kill(process.pid, signal)
    }

    /// Waits for the child to end; after `seconds` it is killed and reported as timed out.
    func finish(within seconds: Double) -> Finished {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            kill(process.pid, SIGKILL)
        }
        process.waitUntilExit()
        return Finished(
            status: process.terminationStatus, exited: process.exited, timedOut: timedOut, stdout: stdout, stderr: stderr)
    }
}

/// Runs an executable to its end (killed after `seconds`).
func run(_ executable: URL, _ arguments: [String], seconds: Double = 10) throws -> Finished {
    try Child(executable, arguments).finish(within: seconds)
}

/// `GET url` with curl (the tool the compose healthchecks use): status, content type and body.
struct Fetched {
    var status: Int
    var contentType: String
    var body: String

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
}

func get(_ url: String) throws -> Fetched {
    let curl = try #require(
        ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) },
        "curl is needed; run scripts/setup")
    let result = try run(
        URL(fileURLWithPath: curl), ["-sS", "-m", "5", "-w", "\n%{http_code} %{content_type}", url], seconds: 10)
    guard result.exited, result.status == 0 else {
        throw FetchError(description: "curl \(url): \(result)")
    }
    var lines = result.stdout.components(separatedBy: "\n")
    let trailer = lines.removeLast().split(separator: " ", maxSplits: 1).map(String.init)
    return Fetched(
        status: Int(trailer.first ?? "") ?? 0, contentType: trailer.count > 1 ? trailer[1] : "",
        body: lines.joined(separator: "\n"))
}

struct FetchError: Error, CustomStringConvertible {
    var description: String
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func isAccepting(_ port: Int) -> Bool {
    (try? RawConnection(port: UInt16(port), timeoutSeconds: 2)) != nil
}

/// A socket bound and listening on 127.0.0.1, to take a port away from a service under test.
final class Listener {
    let descriptor: Int32
    let port: Int

    /// Binds `port` (0: any free one); nil when it is taken.
    init?(port: Int = 0) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            close(descriptor)
            return nil
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// A base port P for which P ..< P + count are free on 127.0.0.1 at the time of asking.
func freeConsecutivePorts(_ count: Int) throws -> Int {
    for _ in 0..<50 {
        let base = Int.random(in: 20_000...60_000)
        // Bind them all at once: a port free alone may be taken by the next check's neighbour.
        let held = (0..<count).compactMap { Listener(port: base + $0) }
        if held.count == count { return base }
    }
    throw FetchError(description: "no \(count) consecutive free ports found between 20000 and 60000")
}

/// Starts `sandbox up` on consecutive free ports; retries on another base if one was taken meanwhile.
func startSandboxUp(dataDirectory: URL) throws -> (child: Child, basePort: Int) {
    let count = try loadCatalogue().regions.count + 3
    var lastFailure = ""
    for _ in 0..<3 {
        let base = try freeConsecutivePorts(count)
        let child = try Child(
            executable("sandbox"), ["up", "--base-port", String(base), "--data-dir", dataDirectory.path])
        if child.waitForOutput("Endpoints:", seconds: 15) { return (child, base) }
        let finished = child.finish(within: 5)
        lastFailure = finished.description
        // Only a port taken between choosing and binding is worth another try.
        guard finished.stderr.contains("cannot listen") else { break }
    }
    Issue.record("sandbox up did not print its table with “Endpoints:” within 15 s:\n\(lastFailure)")
    throw FetchError(description: "sandbox up did not start")
}

