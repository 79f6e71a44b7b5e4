import Foundation
import SandboxCore
import SandboxHTTP
import SandboxHTTPClient
import SandboxWire
import Synchronization
import Testing
import SandboxTestSupport

/// The request journal and the faults, on a real server: what a tester reads and what an app
/// sees when a fault takes its request.
@Suite(.blocksThreads) struct TrafficTests {
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    struct Caller: Sendable, JournalSubject {
        let id: String
        var journalSubject: String { id }
    }

    /// A service whose `/work` routes count how often they ran (a drop fault still does the work).
    final class Traffic {
        let clock = ManualClock()
        let journal: RequestJournal
        let faults: FaultPlan
        let server: Server
        let counter = Counter()
        var worked: Int { counter.value.load(ordering: .relaxed) }

        init(capacity: Int = 1000) throws {
            journal = RequestJournal(capacity: capacity, clock: clock)
            faults = FaultPlan(clock: clock)
            var router = Router()
            let counter = counter
            router.post("/a/work") { request in
                counter.value.add(1, ordering: .relaxed)
                var response = Response.json(["done": true], status: 201)
                response.journalSubject = "T-1"
                return response
            }
            router.get("/a/refuse") { _ in throw HTTPError(status: 409, code: .terminalBusy, message: "Busy.") }
            router.get("/b/read") { _ in .json(["ok": true]) }
            // Answered later from another thread, as a sale is once its commit is durable.
            router.post("/a/later", deferred: { _, reply in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { reply { .success(.json(["done": true], status: 201)) } }
            })
            router.get("/control/faults") { _ in .json(["ok": true]) }
            // A group whose middleware finds who the request acts for: the journal names it.
            router.group("/t", middleware: Middleware { _ in Caller(id: "T-9") }) { terminal in
                terminal.get("/info") { _, _ in .json(["ok": true]) }
                terminal.post("/later", deferred: { _, _, reply in reply { .success(.json(["done": true], status: 201)) } })
            }
            let traffic = TrafficResponder(
                inner: router, journal: journal, faults: faults, exempt: { $0.hasPrefix("/control/") },
                surface: { path in String(path.split(separator: "/").first ?? "") })
            server = Server(name: "test", configuration: ServerConfiguration(), responder: traffic)
            try server.start()
        }

        deinit { server.stop() }

        func send(_ method: HTTPClientRequest.Method, _ path: String, body: String = "") throws -> HTTPClientResponse {
            try HTTPClient().send(
                HTTPClientRequest(
                    method: method, url: "http://127.0.0.1:\(server.port)\(path)", headers: ["Content-Type": "application/json"],
                    body: Array(body.utf8)))
        }
    }

    @Test func theJournalKeepsEachAnswerNewestFirstWithItsCodeAndSubject() throws {
        let service = try Traffic()
        #expect(try service.send(.post, "/a/work").status == 201)
        #expect(try service.send(.get, "/a/refuse").status == 409)
        #expect(try service.send(.get, "/b/read").status == 200)
        _ = try service.send(.get, "/control/faults")
        let all = service.journal.entries()
        #expect(all.map(\.path) == ["/b/read", "/a/refuse", "/a/work"], "the control path is not kept")
        #expect(all.map(\.surface) == ["b", "a", "a"])
        #expect(all[1].errorCode == "terminal_busy" && all[1].status == 409)
        #expect(all[2].subject == "T-1" && all[2].method == "POST" && all[2].errorCode == nil)
        #expect(all.allSatisfy { $0.requestId.hasPrefix("req_") && $0.time.hasPrefix("2026-") })
        #expect(service.journal.entries(.init(failedOnly: true)).map(\.path) == ["/a/refuse"])
        #expect(service.journal.entries(.init(surface: "a", limit: 1)).map(\.path) == ["/a/refuse"])
        service.journal.clear()
        #expect(service.journal.entries().isEmpty)
    }

    @Test func aGroupsContextNamesTheSubjectOfItsEntries() throws {
        let service = try Traffic()
        #expect(try service.send(.get, "/t/info").status == 200)
        #expect(try service.send(.post, "/t/later").status == 201)
        #expect(service.journal.entries(.init(subject: "T-9")).map(\.path) == ["/t/later", "/t/info"])
    }

    @Test func eachSurfaceKeepsOnlyItsLastEntries() throws {
        let service = try Traffic(capacity: 3)
        _ = try service.send(.get, "/b/read")
        for _ in 0..<5 { _ = try service.send(.get, "/a/refuse") }
        let entries = service.journal.entries(.init(limit: 100))
        #expect(entries.filter { $0.surface == "a" }.count == 3)
        #expect(entries.filter { $0.surface == "b" }.count == 1, "a busy surface does not push out another's entries")
    }

    @Test func bodiesAreKeptOnlyOnDemandAndMasked() throws {
        let service = try Traffic()
        _ = try service.send(.post, "/a/work", body: #"{"pin":"1234","requestedAmount":1250}"#)
        #expect(service.journal.entries().first?.requestBody == nil)
        #expect(service.journal.entry(id: service.journal.entries()[0].requestId)?.requestBody == nil)

        service.journal.capturesBodies = true
        _ = try service.send(
            .post, "/a/work", body: #"{"pin":"1234","card":{"pan":"4761730000000011"},"deviceSecret":"s3cret","note":"x"}"#)
        let id = try #require(service.journal.entries().first?.requestId)
        let entry = try #require(service.journal.entry(id: id))
        let body = try #require(entry.requestBody)
        #expect(!body.contains("1234\"") && !body.contains("s3cret") && !body.contains("4761730000000011"), "\(body)")
        #expect(body.contains(#""pin":"***""#) && body.contains("476173******0011") && body.contains(#""note":"x""#), "\(body)")
        #expect(entry.responseBody == #"{"done":true}"#)
        #expect(service.journal.entries().first?.requestBody == nil, "the list never carries bodies")
    }

    @Test func aStatusFaultAnswersTheNextRequestsWithoutDoingTheWork() throws {
        let service = try Traffic()
        let fault = try service.faults.add(Fault(match: .init(method: "post", path: "/a/*"), count: 2, action: .status, status: 503))
        let answers = try (0..<3).map { _ in try service.send(.post, "/a/work") }
        #expect(answers.map(\.status) == [503, 503, 201])
        #expect(answers[0].bodyText.contains(#""code":"injected_fault""#))
        #expect(service.worked == 1)
        #expect(service.journal.entries().map(\.fault) == [nil, fault.id, fault.id])
        #expect(service.faults.list().isEmpty, "spent after two")
    }

    @Test func aShareFaultTakesThatShareEvenlyAndATimedOneEndsWithTheClock() throws {
        let service = try Traffic()
        _ = try service.faults.add(Fault(match: .init(surface: "b"), share: 0.5, action: .status, status: 500, code: "flaky"))
        let statuses = try (0..<6).map { _ in try service.send(.get, "/b/read").status }
        #expect(statuses == [200, 500, 200, 500, 200, 500])
        try service.faults.clear()

        _ = try service.faults.add(Fault(match: .init(path: "/b/read"), seconds: 60, action: .status, status: 502))
        #expect(try service.send(.get, "/b/read").status == 502)
        service.clock.advance(by: 61)
        #expect(try service.send(.get, "/b/read").status == 200)
        #expect(service.faults.list().isEmpty)
    }

    @Test func aDropFaultDoesTheWorkAndClosesTheConnectionWithoutAnAnswer() throws {
        let service = try Traffic()
        let fault = try service.faults.add(Fault(match: .init(path: "/a/work"), count: 1, action: .drop))
        #expect(throws: (any Error).self) { try service.send(.post, "/a/work") }
        #expect(service.worked == 1, "the work was done")
        let entry = try #require(service.journal.entries().first)
        #expect(entry.dropped && entry.fault == fault.id && entry.status == 201)
        #expect(try service.send(.post, "/a/work").status == 201, "one request only")
    }

    @Test func aDropFaultClosesAConnectionWhoseAnswerCameLater() throws {
        let service = try Traffic()
        _ = try service.faults.add(Fault(match: .init(path: "/a/later"), count: 1, action: .drop))
        let started = Date()
        #expect(throws: (any Error).self) {
            try HTTPClient(configuration: .init(totalTimeout: .seconds(10))).send(
                HTTPClientRequest(method: .post, url: "http://127.0.0.1:\(service.server.port)/a/later", headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
        }
        // Closed at once, not left for the client's timeout (an upper bound far from any machine's speed).
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A client that finds a kept-alive connection closed before any answer sends the request again
    /// (libcurl does, even a POST): the dropped answer must be cut short, not missing, or the
    /// device would hear the outcome of its retried request after all.
    @Test func aDroppedAnswerOnAKeptAliveConnectionIsNotRetriedByTheClient() throws {
        let service = try Traffic()
        let client = HTTPClient(configuration: .init(totalTimeout: .seconds(10)))
        let url = "http://127.0.0.1:\(service.server.port)/a/work"
        #expect(try client.send(HTTPClientRequest(method: .post, url: url, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))).status == 201)
        _ = try service.faults.add(Fault(match: .init(path: "/a/work"), count: 1, action: .drop))
        #expect(throws: (any Error).self) {
            try client.send(HTTPClientRequest(method: .post, url: url, headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
        }
        #expect(service.worked == 2, "the dropped request ran once, and was not sent again")
    }

    @Test func aDelayFaultAnswersAfterTheDelay() throws {
        let service = try Traffic()
        _ = try service.faults.add(Fault(match: .init(path: "/b/read"), count: 1, action: .delay, delayMilliseconds: 300))
        #expect(try service.send(.get, "/b/read").status == 200)
        // A lower bound only: the answer cannot come before the delay, however fast the machine.
        #expect((service.journal.entries().first?.milliseconds ?? 0) >= 300)
    }

    @Test func controlPathsAreNeverFaulted() throws {
        let service = try Traffic()
        _ = try service.faults.add(Fault(seconds: 60, action: .status, status: 503))
        #expect(try service.send(.get, "/b/read").status == 503)
        #expect(try service.send(.get, "/control/faults").status == 200)
    }

    @Test("a fault that cannot be set names its field", arguments: [
        (Fault(action: .drop), "count"),
        (Fault(count: 1, share: 0.5, action: .drop), "count"),
        (Fault(count: 0, action: .drop), "count"),
        (Fault(share: 1.5, action: .drop), "share"),
        (Fault(seconds: -1, action: .drop), "seconds"),
        (Fault(count: 1, action: .status), "status"),
        (Fault(count: 1, action: .status, status: 302), "status"),
        (Fault(count: 1, action: .status, status: 503, code: "Bad Code"), "code"),
        (Fault(count: 1, action: .delay), "delayMilliseconds"),
        (Fault(count: 1, action: .delay, delayMilliseconds: 60_001), "delayMilliseconds"),
        (Fault(count: 1, action: .drop, status: 500), "action"),
        (Fault(match: .init(method: "PO ST"), count: 1, action: .drop), "match.method"),
        (Fault(match: .init(path: "sale"), count: 1, action: .drop), "match.path"),
    ])
    func refusedFaults(fault: Fault, field: String) {
        #expect(fault.problem?.field == field)
    }

    @Test("with bodies kept, a body over 16 KiB is noted by its size, never kept: 200 bodies of 512 KiB pin no memory")
    func bigBodiesAreNotKept() throws {
        let service = try Traffic()
        service.journal.capturesBodies = true
        let big = "{\"note\":\"" + String(repeating: "x", count: 1 << 19) + "\"}"
        for _ in 0..<200 { #expect(try service.send(.post, "/a/work", body: big).status == 201) }
        let entries = service.journal.entries(.init(limit: 1000))
        #expect(entries.count == 200)
        let kept = try #require(service.journal.entry(id: entries[0].requestId)?.requestBody)
        #expect(kept.hasPrefix("(a body of \(big.utf8.count) bytes, not kept"), "\(kept.prefix(120))")
        // Every kept body of the surface together: a size note each, not 100 MB.
        let total = entries.compactMap { service.journal.entry(id: $0.requestId)?.requestBody?.utf8.count }.reduce(0, +)
        #expect(total < 200 * 200, "\(total) bytes of bodies kept")
        // At the limit, the body is kept (masked).
        let fits = "{\"note\":\"" + String(repeating: "y", count: BodyMask.keptBytes - 12) + "\"}"
        #expect(try service.send(.post, "/a/work", body: fits).status == 201)
        let fitted = try #require(service.journal.entry(id: service.journal.entries()[0].requestId)?.requestBody)
        #expect(fitted.contains("yyyy"), "\(fitted.prefix(80))")
    }

    @Test("a back-office code and a registration token's QR (text and picture) never show in the journal")
    func registrationSecretsAreMasked() throws {
        let body = #"{"backofficeCode":"EU-483920","qrPayload":"taponmobile://register?environment=EU&token=rt_eu_secret","qrSvg":"<svg>…</svg>","terminalId":"EU-T0101"}"#
        let masked = try #require(BodyMask.masked(Array(body.utf8)))
        #expect(!masked.contains("483920") && !masked.contains("rt_eu_secret") && !masked.contains("<svg>"), "\(masked)")
        #expect(masked.contains("EU-T0101"))
    }

    @Test func maskingHidesPANsInTextToo() {
        #expect(BodyMask.masked(Array("card 4761730000000011 ok".utf8)) == "card 476173******0011 ok")
        #expect(BodyMask.masked(Array("order 123456".utf8)) == "order 123456")
    }
}
