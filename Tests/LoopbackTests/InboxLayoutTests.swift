import Foundation
import SandboxTestSupport
import Testing

/// The layout of docker-compose.yml on loopback: a `webhook-inbox` process, and a `sandbox-host`
/// started with `--webhook-inbox` that sends its merchants' webhooks there.
@Suite("webhook-inbox beside sandbox-host --webhook-inbox", .blocksThreads)
struct InboxLayoutTests {
    /// Starts `program` on a free port; retries when the port was taken between choosing and binding.
    private func start(_ program: String, _ arguments: [String]) throws -> (child: ChildProcess, url: String) {
        var lastFailure = ""
        for _ in 0..<3 {
            let port = Int(freePort())
            let child = try ChildProcess(builtExecutable(program), arguments + ["--port", String(port)])
            if child.waitForOutput("listening on http://127.0.0.1:\(port)", seconds: 10) { return (child, "http://127.0.0.1:\(port)") }
            lastFailure = child.finish(within: 5).description
        }
        Issue.record("\(program) did not start: \(lastFailure)")
        throw HarnessError("\(program) did not start")
    }

    /// `POST url` with a JSON body, through curl: the parsed answer.
    private func post(_ url: String, _ body: String) throws -> [String: Any] {
        let curl = try #require(
            ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "curl is needed; run scripts/setup")
        let result = try run(URL(fileURLWithPath: curl), ["-sS", "-m", "5", "-H", "Content-Type: application/json", "-d", body, url])
        try #require(result.exited && result.status == 0, "POST \(url): \(result)")
        return try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any], "POST \(url): \(result)")
    }

    @Test("the host's webhooks reach the inbox in its own process, and its signature check passes after the host's clock moved three months")
    func hostSendsToTheInbox() throws {
        let (inboxProcess, inbox) = try start("webhook-inbox", ["--access-log", "off"])
        defer {
            inboxProcess.signal(SIGTERM)
            _ = inboxProcess.finish(within: 5)
        }
        let scratch = TemporaryDirectory()
        let dryRun = try run(
            builtExecutable("sandbox-host"), ["--env", "EU", "--data-dir", scratch.url.path, "--webhook-inbox", inbox, "--dry-run"])
        let resolved = (try? JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8))) as? [String: Any]
        #expect(resolved?["webhookInbox"] as? String == inbox, "\(dryRun)")
        let (hostProcess, host) = try start(
            "sandbox-host", ["--env", "EU", "--data-dir", scratch.url.path, "--webhook-inbox", inbox, "--access-log", "off"])
        defer {
            hostProcess.signal(SIGTERM)
            _ = hostProcess.finish(within: 5)
        }

        _ = try post(host + "/_sandbox/clock", #"{"advanceSeconds": 7948800}"#)
        let eventId = try #require(try post(host + "/_sandbox/webhooks/trigger", #"{"event": "payment.succeeded"}"#)["eventId"] as? String)
        var delivery: [String: Any]?
        _ = eventuallyBlocking {
            let events = (try? get(inbox + "/api/events"))?.json?["events"] as? [[String: Any]] ?? []
            delivery = events.first { $0["eventId"] as? String == eventId }
            return delivery != nil
        }
        let received = try #require(delivery, "event \(eventId) did not reach the inbox within 60 s")
        #expect(received["region"] as? String == "EU", "\(received)")
        #expect(received["signature"] as? String == "valid", "the inbox's verdict: \(received)")

        let bad = try run(builtExecutable("sandbox-host"), ["--env", "EU", "--webhook-inbox", "inbox:8111", "--dry-run"])
        #expect(bad.exited && bad.status == 2, "\(bad)")
        #expect(bad.stderr.hasPrefix("sandbox-host: --webhook-inbox must be an http:// or https:// URL"), "\(bad)")
    }
}
