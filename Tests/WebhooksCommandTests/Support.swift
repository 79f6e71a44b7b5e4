import Foundation
import SandboxTestSupport
import Testing
import WebhookSignature

// Runs the built `webhooks` executable the way a user does.

/// The built `webhooks`, or a failed requirement saying how to build it.
func webhooksExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try builtExecutable("webhooks", sourceLocation: sourceLocation)
}

/// Runs `webhooks` with `arguments`, `stdin` as its standard input, in `directory`, without
/// `WEBHOOKS_SECRET` unless `environment` gives one. A run still going after `timeout` seconds is
/// stopped and recorded as an issue.
func webhooks(
    _ arguments: [String], stdin: [UInt8] = [], in directory: URL? = nil, environment: [String: String] = [:],
    timeout: TimeInterval = 30
) throws -> ProcessOutput {
    var childEnvironment = ProcessInfo.processInfo.environment
    childEnvironment["WEBHOOKS_SECRET"] = nil
    for (key, value) in environment { childEnvironment[key] = value }
    let output = try SpawnedProcess.run(
        try webhooksExecutable(), arguments, in: directory, environment: childEnvironment, stdin: stdin, timeout: timeout)
    if output.timedOut {
        Issue.record("webhooks \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    return output
}

/// A `webhooks listen` running in the background on a port the system picks.
final class Listener: @unchecked Sendable {
    private let child: ChildProcess
    private(set) var port: UInt16 = 0

    var process: SpawnedProcess { child.process }
    /// Its working folder (where `--capture` files land).
    var folder: TemporaryDirectory { child.folder }
    var url: String { "http://127.0.0.1:\(port)" }

    /// Starts `webhooks listen --port 0 <arguments>` and waits for its "listening on" line.
    init(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        child = try ChildProcess(
            try webhooksExecutable(sourceLocation: sourceLocation), ["listen", "--port", "0"] + arguments,
            environment: ProcessInfo.processInfo.environment)
        let banner = "listening on http://127.0.0.1:"
        if child.waitForOutput(banner, seconds: 15), let first = lines.first, first.hasPrefix(banner) {
            port = UInt16(first.dropFirst(banner.count).prefix { $0.isNumber }) ?? 0
            return
        }
        stop()
        Issue.record("webhooks listen did not start:\n\(stdout)\n\(stderr)", sourceLocation: sourceLocation)
        throw Closed()
    }

    struct Closed: Error {}

    deinit { stop() }

    var stdout: String { child.stdout }
    var stderr: String { child.stderr }
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// The JSON objects printed so far (`--json`), without the banner.
    var events: [[String: Any]] {
        lines.dropFirst().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Waits until `count` events were printed (they are printed before the answer is sent, but
    /// the file write and the test's read may still cross).
    func waitForEvents(_ count: Int) -> [[String: Any]] {
        _ = eventuallyBlocking { events.count >= count }
        return events
    }

    /// SIGTERM (as Ctrl-C would end it), and waits for it to be gone.
    func stop() {
        guard process.isRunning else { return }
        child.signal(SIGTERM)
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
