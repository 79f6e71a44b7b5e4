import Foundation
import SandboxHTTP
import Synchronization
import SandboxTestSupport
import Testing

/// `webhooks trigger` against a stand-in for the host's `POST /_sandbox/webhooks/trigger`.
@Suite("webhooks trigger", .blocksThreads)
struct TriggerTests {
    /// A host that records what it was sent and answers as configured.
    final class FakeHost: Sendable {
        typealias Request = (path: String, contentType: String?, body: String)

        final class Recorder: Sendable {
            let requests = Mutex<[Request]>([])
        }

        let server: Server
        let recorder = Recorder()
        /// What the host was sent so far.
        var requests: [Request] { recorder.requests.withLock { $0 } }

        init(status: Int = 202, answer: String = #"{"eventId":"evt_test_1"}"#) throws {
            var router = Router()
            let recorder = self.recorder
            router.post("/_sandbox/webhooks/trigger") { request in
                recorder.requests.withLock {
                    $0.append((request.path, request.header("content-type"), String(decoding: request.body, as: UTF8.self)))
                }
                return Response(status: status, headers: [("Content-Type", "application/json")], body: Array(answer.utf8))
            }
            server = Server(name: "fake", configuration: .init(port: 0, drainSeconds: 0.1), responder: router)
            try server.start()
        }

        var url: String { "http://127.0.0.1:\(server.port)" }

        deinit { server.stop() }
    }

    /// A working folder whose `.sandbox/endpoints.json` names `hosts`.
    static func folder(_ hosts: [String: String]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try FileManager.default.createDirectory(at: folder.file(".sandbox"), withIntermediateDirectories: true)
        let endpoints: [String: Any] = ["environments": hosts, "portal": "http://127.0.0.1:9", "wallet": "http://127.0.0.1:9"]
        try JSONSerialization.data(withJSONObject: endpoints).write(to: folder.file(".sandbox/endpoints.json"))
        return folder
    }

    @Test("finds the host in .sandbox/endpoints.json, posts {\"event\": NAME} and prints the event id")
    func triggers() throws {
        let host = try FakeHost()
        let other = try FakeHost()
        let folder = try Self.folder(["EU": host.url, "MBANK": other.url])
        let run = try webhooks(["trigger", "--env", "EU", "--event", "payment.succeeded"], in: folder.url)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "evt_test_1\n")
        let received = host.requests
        #expect(received.count == 1)
        #expect(received.first?.contentType == "application/json")
        #expect(object(received.first?.body ?? "") as? [String: String] == ["event": "payment.succeeded"])
        #expect(other.requests.isEmpty)

        let lowercase = try webhooks(["trigger", "--env", "mbank", "--event", "refund.succeeded"], in: folder.url)
        #expect(lowercase.status == 0, "\(lowercase)")
        #expect(other.requests.map(\.body) == [#"{"event":"refund.succeeded"}"#])
    }

    @Test("--endpoints names another file, --url skips the file")
    func explicitHost() throws {
        let host = try FakeHost()
        let folder = try Self.folder(["EU": host.url])
        let elsewhere = TemporaryDirectory()
        let byFile = try webhooks(
            ["trigger", "--event", "payment.failed", "--endpoints", folder.file(".sandbox/endpoints.json").path], in: elsewhere.url)
        #expect(byFile.status == 0, "\(byFile)")
        let byURL = try webhooks(["trigger", "--event", "payment.failed", "--url", host.url + "/"], in: elsewhere.url)
        #expect(byURL.status == 0, "\(byURL)")
        #expect(host.requests.count == 2)
    }

    @Test("--dry-run prints the request it would send and sends nothing")
    func dryRun() throws {
        let host = try FakeHost()
        let folder = try Self.folder(["EU": host.url])
        let run = try webhooks(["trigger", "--event", "refund.failed", "--dry-run"], in: folder.url)
        #expect(run.status == 0, "\(run)")
        let request = try #require(object(run.stdout), "\(run)")
        #expect(request["method"] as? String == "POST")
        #expect(request["url"] as? String == host.url + "/_sandbox/webhooks/trigger", "\(request)")
        #expect(request["body"] as? [String: String] == ["event": "refund.failed"], "\(request)")
        #expect(host.requests.isEmpty, "a dry run sent \(host.requests)")
        // The host is still looked up: an unknown region is the same usage error as without --dry-run.
        let region = try webhooks(["trigger", "--env", "XX", "--event", "payment.succeeded", "--dry-run"], in: folder.url)
        #expect(region.status == 2, "\(region)")
    }

    @Test("a refusal by the host exits 1 with its error envelope")
    func refused() throws {
        let host = try FakeHost(status: 400, answer: #"{"error":{"code":"unknown_event","message":"No event type 'nope'."}}"#)
        let folder = try Self.folder(["EU": host.url])
        let run = try webhooks(["trigger", "--event", "nope"], in: folder.url)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == "webhooks trigger: \(host.url) answered 400: unknown_event: No event type 'nope'.\n")
    }

    @Test("an unreachable host exits 1; a missing file or an unknown region is a usage error")
    func failures() throws {
        let folder = try Self.folder(["EU": "http://127.0.0.1:\(freePort())"])
        let unreachable = try webhooks(["trigger", "--event", "payment.succeeded"], in: folder.url)
        #expect(unreachable.status == 1, "\(unreachable)")
        #expect(unreachable.stderr.hasPrefix("webhooks trigger: cannot reach http://127.0.0.1:"))

        let region = try webhooks(["trigger", "--env", "XX", "--event", "payment.succeeded"], in: folder.url)
        #expect(region.status == 2)
        #expect(region.stderr.hasPrefix("webhooks trigger: --env must be one of EU (from "), "\(region)")

        let empty = TemporaryDirectory()
        let missing = try webhooks(["trigger", "--event", "payment.succeeded"], in: empty.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("webhooks trigger: the sandbox is not running here (no .sandbox/endpoints.json): start 'sandbox up'"), "\(missing)")
    }
}
