import Foundation
import TestSupport
import Testing
import WebhookSignature

// Runs the built `webhooks` executable the way a user does.

/// The built `webhooks`, or a failed requirement saying how to build it.
func webhooksExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(
        Paths.executable("webhooks"),
        "webhooks is not built in \(Paths.products.path); run `swift build --build-tests` first",
        sourceLocation: sourceLocation)
}

/// How one run ended.
struct Run: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var description: String { "exit \(status)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)" }
}

/// Runs `webhooks` with `arguments`, `stdin` as its standard input, in `directory`.
func webhooks(
    _ arguments: [String], stdin: [UInt8] = [], in directory: URL? = nil, environment: [String: String] = [:],
    timeout: TimeInterval = 30
) throws -> Run {
    let scratch = TemporaryDirectory()
    let input = scratch.file("stdin"), out = scratch.file("stdout"), err = scratch.file("stderr")
    try Data(stdin).write(to: input)
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    var childEnvironment = ProcessInfo.processInfo.environment
    childEnvironment["WEBHOOKS_SECRET"] = nil
    for (key, value) in environment { childEnvironment[key] = value }
    let process = try SpawnedProcess(
        executable: try webhooksExecutable().path, arguments: arguments, environment: childEnvironment,
        directory: (directory ?? scratch.url).path, stdin: input.path, stdout: out.path, stderr: err.path)
    if !process.finish(within: timeout) {
        Issue.record("webhooks \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    return Run(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}

/// A `webhooks listen` running in the background on a port the system picks.
final class Listener: @unchecked Sendable {
    private(set) var process: SpawnedProcess!
    let folder = TemporaryDirectory()
    private(set) var port: UInt16 = 0

    var url: String { "http://127.0.0.1:\(port)" }

    /// Starts `webhooks listen --port 0 <arguments>` and waits for its "listening on" line.
    init(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        _ = FileManager.default.createFile(atPath: folder.file("stdout").path, contents: nil)
        _ = FileManager.default.createFile(atPath: folder.file("stderr").path, contents: nil)
        process = try SpawnedProcess(
            executable: try webhooksExecutable(sourceLocation: sourceLocation).path, arguments: ["listen", "--port", "0"] + arguments,
            environment: ProcessInfo.processInfo.environment, directory: folder.url.path, stdout: folder.file("stdout").path,
            stderr: folder.file("stderr").path)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let first = lines.first, first.hasPrefix("listening on http://127.0.0.1:") {
                let rest = first.dropFirst("listening on http://127.0.0.1:".count)
                port = UInt16(rest.prefix { $0.isNumber }) ?? 0
                return
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        stop()
        Issue.record("webhooks listen did not start:\n\(stdout)\n\(stderr)", sourceLocation: sourceLocation)
        throw Closed()
    }

    struct Closed: Error {}

    deinit { stop() }

    var stdout: String { (try? String(contentsOf: folder.file("stdout"), encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: folder.file("stderr"), encoding: .utf8)) ?? "" }
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// The JSON objects printed so far (`--json`), without the banner.
    var events: [[String: Any]] {
        lines.dropFirst().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Waits until `count` events were printed (they are printed before the answer is sent, but
    /// the file write and the test's read may still cross).
    func waitForEvents(_ count: Int) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(5)
        while events.count < count && Date() < deadline { usleep(10_000) }
        return events
    }

    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.pid, SIGTERM)
        process.waitUntilExit()
    }
}

/// One POST over a plain connection: what a webhook sender does.
func post(
    port: UInt16, path: String = "/webhooks", headers: [String: String], body: [UInt8], method: String = "POST"
) throws -> RawConnection.Response {
    let connection = try RawConnection(port: port)
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    try connection.send(Array((head + "\r\n").utf8) + body)
    return try connection.readResponse()
}

/// The signature headers of `body`, as a dictionary.
func signatureHeaders(_ scheme: WebhookScheme, body: [UInt8], secret: String, id: String = "msg_cli", timestamp: Int? = nil)
    throws -> [String: String]
{
    let headers = try WebhookSigner.headers(
        scheme: scheme, id: id, timestamp: timestamp ?? Int(Date().timeIntervalSince1970), body: body, secret: secret)
    return Dictionary(uniqueKeysWithValues: headers.map { ($0.name, $0.value) })
}

/// JSON text of an answer as an object.
func object(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
}

enum Sample {
    static let apiKey = "pk_test_monei_123"
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let body = Array(#"{"id":"evt_1","type":"payment.succeeded","amount":1050}"#.utf8)
    /// Computed with Python's hmac for t = 1700000000 (see WebhookSignatureTests' known answers).
    static let moneiSignature = "t=1700000000,v1=70f995992a9e1a61b7c104b2ac99e1eac98cc353b5517b0649feba875175e180"
    static let standardSignature = "v1,Qs8B6i4U9Eh4h1bpVtQBW0M8cuwouUYZOmIQijP6sPQ="
}
