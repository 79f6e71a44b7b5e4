import Foundation
import SandboxTestSupport
import Testing
import WebhookSignature

/// Fixed inputs shared by the suites; the expected signatures were computed with Python's
/// `hmac` and `base64` modules, independently of this library.
enum Sample {
    static let apiKey = "pk_test_monei_123"
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let timestamp = 1_700_000_000
    static let id = "msg_1"
    static let body = Array(#"{"id":"evt_1","type":"payment.succeeded","amount":1050}"#.utf8)
}

/// The signer's `(name, value)` pairs as the `[String: String]` a server hands a handler.
func dictionary(_ headers: [(name: String, value: String)]) -> [String: String] {
    Dictionary(uniqueKeysWithValues: headers.map { ($0.name, $0.value) })
}

/// Signs `body` and returns the headers as a dictionary.
func signed(
    _ scheme: WebhookScheme, body: [UInt8] = Sample.body, secret: String? = nil, id: String = Sample.id,
    timestamp: Int = Sample.timestamp
) throws -> [String: String] {
    let secret = secret ?? (scheme == .monei ? Sample.apiKey : Sample.secret)
    return dictionary(try WebhookSigner.headers(scheme: scheme, id: id, timestamp: timestamp, body: body, secret: secret))
}

/// The error `body` throws, or nil when it does not throw.
func failure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> WebhookVerificationError? {
    do {
        try body()
        return nil
    } catch let error as WebhookVerificationError {
        return error
    } catch {
        Issue.record("not a WebhookVerificationError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Runs `executable` (looked up on PATH) with `arguments` and `environment` added, in this
/// process's working folder (where `node` finds the checkout's packages); a run still going after
/// `timeout` seconds is stopped and recorded as an issue.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60)
    throws -> ProcessOutput
{
    let output = try SpawnedProcess.run(
        executable, arguments, in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), environment: environment,
        timeout: timeout)
    if output.timedOut {
        Issue.record("\(executable) did not finish within \(timeout) s")
    }
    return output
}

/// Requires the Python reference packages, pointing at scripts/setup when they are missing.
func requirePythonPackages(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let probe = try runProcess("python3", ["-c", "import stripe, standardwebhooks"])
    try #require(
        probe.status == 0,
        "the Python packages stripe and standardwebhooks are missing: run scripts/setup\n\(probe)",
        sourceLocation: sourceLocation)
}

/// The current Unix time for samples that real-clock verifiers (Python, Node) check.
func currentUnixTime() -> Int { Int(Date().timeIntervalSince1970) }
