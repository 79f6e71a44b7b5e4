import SandboxTime
import EnvironmentHost
import Foundation
import HostTestSupport
import Launcher
import SandboxCore
import SandboxHTTP
import SandboxHTTPClient
import SandboxTestSupport
import Testing

// One environment host (EU) started in this process on a port the system picks, with its
// database in a temporary folder, no default webhook receiver (each test points the merchant at
// its own), and the back-office and sandbox-control calls the webhook tests use.

/// The fixture merchants and terminals the tests use (EU).
enum EU {
    static let region = "EU"
    /// EU-M01: EU-T0101 (auto-login, refunds, reversals).
    static let merchant1 = "EU-M01"
    static let terminal1 = "EU-T0101"
    /// EU-M02: EU-T0203 (PIN login, refunds, reversals, no reference rules).
    static let merchant2 = "EU-M02"
    static let terminal2 = "EU-T0203"

    static func fixture(sourceLocation: SourceLocation = #_sourceLocation) throws -> RegionFixture {
        let file = try #require(MerchantsFile.shipped, "sandbox-data/merchants.json does not load", sourceLocation: sourceLocation)
        return try #require(file.regions[region], "merchants.json has no EU", sourceLocation: sourceLocation)
    }

    static func apiKey(_ merchant: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let found = try fixture(sourceLocation: sourceLocation).merchants.first { $0.id == merchant }?.apiKey
        return try #require(found, "merchants.json has no \(merchant)", sourceLocation: sourceLocation)
    }

    static func autoLogin(_ terminal: String, region: String = region) -> Bool {
        MerchantsFile.shipped?.regions[region]?.merchants.flatMap(\.terminals).first { $0.id == terminal }?.autoLogin ?? false
    }
}

/// An EU host in this process (HostTestSupport's `InProcessHost`) and the back-office calls the
/// webhook tests make on it.
final class TestHost: @unchecked Sendable {
    let running: InProcessHost
    let backOfficeKey: String
    /// Whether the test drives the deliveries (``deliverDue()``) instead of the host's own dispatcher.
    let driven: Bool

    var directory: TemporaryDirectory { running.directory }
    var host: EnvironmentHost { running.host }
    var clock: SandboxClock { running.clock }
    var api: Service { running.service }

    /// Starts a host on `directory` (a fresh one by default; pass the previous host's to restart).
    ///
    /// - Parameters:
    ///   - wallClock: the real time the host signs webhooks with (the system's by default).
    ///   - resolver: how it resolves webhook hosts (a test's table to play DNS).
    ///   - webhookURL: the operator's default receiver (`sandbox up`'s inbox).
    init(
        flavour: Flavour = .sandbox, directory: TemporaryDirectory = TemporaryDirectory(), dispatches: Bool = true,
        wallClock: any TimeSource = WallClock(), resolver: PublicAddress.Resolver? = nil,
        webhookURL: (@Sendable (String) -> String?)? = nil, clock: SandboxClock = .standingStill(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        running = try InProcessHost(
            region: EU.region, flavour: flavour, directory: directory, dispatches: dispatches, wallClock: wallClock,
            resolver: resolver, webhookURL: webhookURL, clock: clock, sourceLocation: sourceLocation)
        backOfficeKey = try EU.fixture(sourceLocation: sourceLocation).backOfficeKey
        driven = !dispatches
    }

    func stop() { host.stop() }

    // MARK: Driven deliveries (a host started with `dispatches: false`)

    /// One pass of the dispatcher: the events due now on the host's clock are sent and their
    /// answers recorded before it returns. 0: nothing was due, so nothing was sent.
    @discardableResult
    func deliverDue(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        do { return try host.deliverDueWebhooks() } catch {
            Issue.record("a delivery pass failed: \(error)", sourceLocation: sourceLocation)
            return 0
        }
    }

    /// Passes until one finds nothing due (an event waiting for an earlier one of its payment goes
    /// in the pass after it): everything due now has been sent. How many attempts were made.
    @discardableResult
    func deliverAllDue(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var total = 0
        for _ in 0..<100 {
            let sent = deliverDue(sourceLocation: sourceLocation)
            if sent == 0 { return total }
            total += sent
        }
        Issue.record("still delivering after 100 passes (\(total) attempts)", sourceLocation: sourceLocation)
        return total
    }

    // MARK: Back office: webhook settings, log, replay

    @discardableResult
    func setWebhook(
        _ merchant: String, url: String?, scheme: String = "monei", expect status: Int = 200,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> HTTPReply {
        var body: [String: Any] = ["scheme": scheme]
        body["url"] = url ?? NSNull()
        return expectReply(
            await api.call("PUT", "/backoffice/v1/merchants/\(merchant)/webhook", bearer: backOfficeKey, body: body), status, nil,
            "PUT the webhook settings of \(merchant) (\(url ?? "null"), \(scheme))", sourceLocation: sourceLocation)
    }

    func webhookSettings(_ merchant: String) async -> HTTPReply {
        await api.call("GET", "/backoffice/v1/merchants/\(merchant)/webhook", bearer: backOfficeKey)
    }

    /// The delivery log's list (newest first), optionally of one merchant.
    func events(merchant: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async -> [[String: Any]] {
        let query = "?limit=500" + (merchant.map { "&merchantId=\($0)" } ?? "")
        let reply = expectReply(
            await api.call("GET", "/backoffice/v1/webhooks/events" + query, bearer: backOfficeKey), 200, nil,
            "GET the delivery log", sourceLocation: sourceLocation)
        return reply.objects("events")
    }

    /// One event with its payload and attempts.
    func event(_ id: String) async -> HTTPReply {
        await api.call("GET", "/backoffice/v1/webhooks/events/\(id)", bearer: backOfficeKey)
    }

    func replay(_ id: String) async -> HTTPReply {
        await api.call("POST", "/backoffice/v1/webhooks/events/\(id)/replay", bearer: backOfficeKey)
    }

    /// `POST /_sandbox/webhooks/trigger`: the sample event's id.
    func trigger(
        _ type: String, merchant: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let reply = expectReply(
            await api.call("POST", "/_sandbox/webhooks/trigger", body: ["event": type, "merchantId": merchant]), 202, nil,
            "trigger \(type) for \(merchant)", sourceLocation: sourceLocation)
        return try #require(reply.string("eventId"), "trigger: no eventId: \(reply)", sourceLocation: sourceLocation)
    }

    /// Moves the host clock to `date` over HTTP, unless it is there already: the sandbox clock also
    /// moves with real time, and on a loaded machine it may have passed `date` on its own.
    func moveClock(to date: Date, sourceLocation: SourceLocation = #_sourceLocation) async {
        let now = parseTime(expectReply(await api.call("GET", "/_sandbox/clock"), 200, nil, "read the clock").string("now"))
        guard let now, date > now else { return }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let reply = await api.call("POST", "/_sandbox/clock", body: ["set": formatter.string(from: date)])
        // The clock also moves with real time: on a loaded machine it may pass `date` between the
        // read above and this call, and then refuses to go back, which is where the test wanted it.
        if reply.status == 400, let after = parseTime(await api.call("GET", "/_sandbox/clock").string("now")), after >= date {
            return
        }
        expectReply(reply, 200, nil, "move the clock to \(date)", sourceLocation: sourceLocation)
    }

    /// Moves the host clock forward over HTTP.
    func advance(_ seconds: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await api.advanceClock(seconds, "advance", sourceLocation: sourceLocation)
    }

    /// The state of an event in the log (`pending`, `delivered`, …) and its attempts.
    func state(of id: String) async -> (state: String?, attempts: Int) {
        let reply = await event(id)
        return (reply.string("state"), reply.int("attempts") ?? -1)
    }

    /// Waits until event `id` has at least `attempts` attempts in the log; its detail.
    @discardableResult
    func waitForAttempts(
        _ id: String, _ attempts: Int, seconds: Double = 10, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> HTTPReply {
        await waitForEvent(
            id, seconds: seconds, "\(step): event \(id) did not reach \(attempts) attempt(s)", sourceLocation: sourceLocation
        ) { ($0.int("attempts") ?? 0) >= attempts }
    }

    /// Waits until event `id` is in `state`; its detail.
    @discardableResult
    func waitForState(
        _ id: String, _ state: String, seconds: Double = 10, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> HTTPReply {
        await waitForEvent(id, seconds: seconds, "\(step): event \(id) is not \(state)", sourceLocation: sourceLocation) {
            $0.string("state") == state
        }
    }

    /// Polls event `id` until its detail passes `reached`; an issue `failure` when it does not within
    /// `seconds`. On a driven host, what is due is delivered first: then the detail is final.
    private func waitForEvent(
        _ id: String, seconds: Double, _ failure: String, sourceLocation: SourceLocation, _ reached: (HTTPReply) -> Bool
    ) async -> HTTPReply {
        var last = HTTPReply(request: "", status: 0, text: "", json: nil)
        if driven {
            deliverAllDue(sourceLocation: sourceLocation)
            last = await event(id)
            if !reached(last) { Issue.record("\(failure) once what was due was delivered: \(last)", sourceLocation: sourceLocation) }
            return last
        }
        let passed = await eventually(seconds) {
            last = await event(id)
            return reached(last)
        }
        if !passed {
            Issue.record("\(failure) within \(seconds) s: \(last)", sourceLocation: sourceLocation)
        }
        return last
    }
}

/// The attempts of an event detail: `(attempt, at, status)` in order.
func attemptLog(_ detail: HTTPReply) -> [(attempt: Int, at: Date?, status: Int?, entry: [String: Any])] {
    detail.objects("log").map { entry in
        ((entry["attempt"] as? NSNumber)?.intValue ?? -1, parseTime(entry["at"]), (entry["status"] as? NSNumber)?.intValue, entry)
    }
}
