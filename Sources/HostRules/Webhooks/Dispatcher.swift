import HostStorage
import SandboxTime
import Foundation
import SandboxCore
import SandboxHTTPClient
import SandboxStore
import Synchronization
import WebhookSignature

/// Delivers the outbox's webhook events: signed, with bounded concurrency, retried on a schedule
/// that follows the sandbox clock, in order per payment.
///
/// Two clocks: the sandbox clock decides when an attempt is due and dates it in the log (moving it
/// makes retries due at once), while the signature's timestamp is the wall clock's at the attempt.
/// A receiver checks that timestamp against its own clock (300 s either way in Stripe's,
/// Standard Webhooks' and our verifiers), so a host whose sandbox clock was moved ahead would
/// otherwise sign every delivery "in the future" and have all of them refused.
///
/// An event is marked delivered only after its receiver answered 2xx and that answer committed,
/// so a host killed mid-delivery sends the event again after its restart (with the same id): a
/// receiver sees every event at least once and removes repeats by id. 410 disables the merchant's
/// endpoint; one endpoint has a quarter of the slots in flight (``perEndpoint``), and more only
/// while that many stay free for the others, so a receiver that hangs delays only its own events,
/// while a merchant alone still gets most of the slots; 429 and 503 wait as long as `Retry-After` asks when that is longer than the schedule's
/// wait, and count as attempts like any answer.
package final class Dispatcher: Sendable {
    /// Waits after the first, second, … failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h;
    /// past the last, the event fails.
    package static let retrySchedule = RetrySchedule.table([5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400].map { $0 * 1000 })
    package static let timeout: Duration = .seconds(15)

    package let store: Store
    /// When attempts are due, and when they happened (the delivery log).
    package let clock: any TimeSource
    /// The time a delivery is signed with: real time, never the sandbox clock's.
    package let wallClock: any TimeSource
    package let client: HTTPClient
    /// The MONEI signing key of a merchant: its API key.
    package let apiKey: @Sendable (String) -> String?
    package var concurrency: Int { worker.concurrency }
    /// The address rule every delivery to a client's URL is checked against, at its own attempt
    /// (a name may resolve elsewhere by now), and connected by.
    package let destinations: PublicAddress
    /// The operator's own receiver of a merchant (`sandbox up`'s inbox, `--webhook-inbox`), which
    /// no client chose: sent to unchecked, loopback on every flavour.
    package let operatorURL: (@Sendable (_ merchant: String) -> String?)?
    /// The thread, and the events in flight (id, with its URL as its lane): a slow receiver holds its own slots, not the others'.
    private let worker: OutboxWorker
    /// This dispatcher's name in `webhook_claims`: replicas on one PostgreSQL database claim an
    /// event before they deliver it (a lone SQLite host claims nothing).
    package let replica = "dispatcher-" + UUID().uuidString.lowercased()
    /// How long a claim lasts (real time, ms): past the longest delivery (``timeout``), so that
    /// only a replica that died loses its events to the others.
    package let lease: Int64
    private var claims: Bool { store.engine == .postgres }
    /// Due events read ahead (one process alone on its SQLite file): the dispatcher's thread takes
    /// the next ones from here instead of querying after every delivery.
    private let ahead = Mutex(ReadAhead())

    /// Ids of due events, the earliest first, as one query found them, and whether they still
    /// stand for what is due. Each event is loaded afresh when it is sent (its row may have changed
    /// or gone since: a reset, a new secret), so a stale list can only change the order.
    private struct ReadAhead {
        var events: [(id: String, url: String)] = []
        /// Something the list did not see may be due (an event written, the clock moved, a wake-up).
        var stale = true
        /// When an event the list does not hold falls due (sandbox clock): stale from then on.
        var staleAt = Int64.max
        /// Whether the events of other endpoints than the list's were looked for since it was read.
        var searchedOthers = false
        /// When the next event not in flight falls due, none of the `blocked` endpoints' (nil: none
        /// pending), as the last look found it while the list stood.
        var next: (blocked: [String], at: Int64?)?
    }
    /// Real time now (ms), or `.max` where there are no claims (every claim is then "before").
    private func claimCutoff() -> Int64 { claims ? wallClock.nowMilliseconds() : .max }

    package init(
        store: Store, clock: any TimeSource, wallClock: any TimeSource, apiKey: @escaping @Sendable (String) -> String?,
        destinations: PublicAddress = PublicAddress(), operatorURL: (@Sendable (String) -> String?)? = nil, concurrency: Int = 16,
        lease: Duration = .seconds(60)
    ) {
        self.lease = lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
        self.destinations = destinations
        self.operatorURL = operatorURL
        self.store = store
        self.clock = clock
        self.wallClock = wallClock
        self.apiKey = apiKey
        worker = OutboxWorker(name: "webhook-dispatcher", concurrency: concurrency, drainTimeout: .seconds(16))
        client = HTTPClient(
            configuration: .init(
                connectTimeout: .seconds(5), totalTimeout: Self.timeout, maxResponseBodySize: 64 * 1024,
                userAgent: "TapSandbox-Webhooks/1.0", maxIdleHandles: concurrency))
    }

    package func now() -> Int64 { clock.nowMilliseconds() }

    /// The deliveries one endpoint (URL) always may have in flight (a quarter of the slots); it
    /// may have more, up to ``endpointCap``, only while as many slots stay free for the others. So
    /// a receiver that hangs or trickles never holds the slots another merchant's events need, and
    /// a merchant whose events are the only ones due still gets most of the slots.
    package var perEndpoint: Int { max(1, concurrency / 4) }
    /// The most deliveries one endpoint has in flight: every slot but the ``perEndpoint`` kept free.
    package var endpointCap: Int { max(perEndpoint, concurrency - perEndpoint) }

    /// The URLs whose next delivery cannot start now: at ``endpointCap``, or past their share
    /// while no more than the kept slots are free.
    package func blocked(_ busy: [String: String]) -> [String] {
        let free = concurrency - busy.count
        return Dictionary(busy.values.map { ($0, 1) }, uniquingKeysWith: +)
            .filter { $0.value >= endpointCap || ($0.value >= perEndpoint && free <= perEndpoint) }.map(\.key).sorted()
    }

    /// Wakes the delivery thread to look for due events: a commit that wrote one (the store's
    /// `webhooks` channel), a move of the sandbox clock, a delivery that ended.
    package func wake() {
        ahead.withLock { $0.stale = true }
        worker.wake()
    }

    /// Starts the delivery thread: it starts due deliveries while slots are free, then sleeps
    /// until the next event is due or it is woken (``wake()``); it never polls.
    package func start() { worker.start { [self] in idleUntil() } }

    /// Stops starting deliveries, then waits (at most the delivery timeout) for those under way.
    package func stop() { worker.stop() }


    package typealias Due = DueWebhook

    /// One pass: starts what is due, then says how long the thread may sleep (nil: look again now).
    /// It sleeps until the earliest event that is pending, not in flight and not waiting for an
    /// earlier event of its payment falls due on the sandbox clock, or without end when there is
    /// none, or while every slot is taken: a wake ends the sleep early.
    private func idleUntil() -> DispatchTime? {
        do {
            if try startDue() > 0 { return nil }
            let busy = worker.inFlight
            if busy.count >= concurrency { return .distantFuture }
            let now = now()
            // An endpoint that may not start another delivery now is woken for when one ends.
            let blocked = blocked(busy)
            let cutoff = claimCutoff()
            // Alone on the database, what the last look found stands until the list goes stale (a
            // write, a move of the clock, a delivery that did not succeed): an endpoint at its share
            // does not cost a query after each of its deliveries.
            let known = claims ? nil : ahead.withLock { ahead in ahead.stale ? nil : ahead.next.flatMap { $0.blocked == blocked ? $0 : nil } }
            let (next, claimEnd): ((id: String, at: Int64)?, Int64?) =
                if let known {
                    (known.at.map { (id: "", at: $0) }, nil)
                } else {
                    try store.read { db in
                        (
                            try db.webhooks.nextDue(limit: busy.count + 1, excluding: blocked, claimedAfter: cutoff).first { busy[$0.id] == nil },
                            cutoff == .max ? nil : try db.webhooks.earliestClaimEnd()
                        )
                    }
                }
            if !claims, known == nil, next.map({ $0.at > now }) ?? true {
                ahead.withLock { $0.next = (blocked, next?.at) }
            }
            if let next { ahead.withLock { $0.staleAt = min($0.staleAt, next.at) } }
            // Another replica's claim that ends is work for this one (sandbox clock for retries,
            // real time for leases).
            let waits = [next.map { $0.at - now }, claimEnd.map { $0 + 1 - cutoff }].compactMap { $0 }
            guard let wait = waits.min() else { return .distantFuture }
            return DueWorker.sleep(milliseconds: wait)
        } catch {
            // A database that cannot be read now (a reset under way) is tried again in a second.
            return .now() + .seconds(1)
        }
    }

    /// Starts the deliveries due now, as many as free slots allow; each records its own answer.
    ///
    /// - Returns: how many it started.
    @discardableResult
    package func startDue() throws -> Int {
        let busy = worker.inFlight
        let free = concurrency - busy.count
        guard free > 0 else { return 0 }
        let now = now()
        if !claims { return try startReadAhead(busy: busy, now: now) }
        // An endpoint that may not start another delivery is left out of the query, so the events
        // of the others behind its backlog are found.
        var load = Dictionary(busy.values.map { ($0, 1) }, uniquingKeysWith: +)
        let cutoff = claimCutoff()
        let candidates = try store.read { db in
            try db.webhooks.due(at: now, limit: free * perEndpoint + busy.count, excluding: blocked(busy), claimedAfter: cutoff)
        }
        var due: [Due] = []
        var inUse = busy.count
        for event in candidates where busy[event.id] == nil && inUse < concurrency {
            let held = load[event.url, default: 0]
            // Within its share an endpoint always gets a slot; beyond it, only while as many stay free.
            guard held < perEndpoint || (held < endpointCap && concurrency - inUse > perEndpoint) else { continue }
            load[event.url] = held + 1
            inUse += 1
            due.append(event)
        }
        let claimed = cutoff != .max
        if claimed, !due.isEmpty {
            // Replicas: only what this one claimed (the others' claims left out, or won meanwhile).
            let taken = try store.write { db in
                try db.webhooks.claim(due.map(\.id), replica: replica, until: cutoff + lease, now: cutoff, due: now)
            }
            due.removeAll { !taken.contains($0.id) }
        }
        for event in due {
            worker.spawn(event.id, lane: event.url) { [self] in
                let outcome = attempt(event)
                try? record([(event, outcome)], at: self.now(), claimed: claimed)
            }
        }
        return due.count
    }

    /// ``startDue()`` for one process alone on its database: the events come from the list read
    /// ahead, read again when it is stale or used up, and each is loaded afresh on the thread that
    /// sends it (one that is no longer pending is skipped). The same shares per endpoint.
    private func startReadAhead(busy: [String: String], now: Int64) throws -> Int {
        var load = Dictionary(busy.values.map { ($0, 1) }, uniquingKeysWith: +)
        var inUse = busy.count
        let started: [(id: String, url: String)] = try ahead.withLock { ahead in
            if now >= ahead.staleAt { ahead.stale = true }
            if ahead.stale || !ahead.events.contains(where: { busy[$0.id] == nil }) {
                // The earliest, whatever their endpoint: one that has its share waits in the list
                // (leaving it out would leave the list empty, read again after every delivery).
                let limit = max(256, (concurrency - inUse) * perEndpoint + inUse)
                let read = try store.read { db in try db.webhooks.dueIDs(at: now, limit: limit) }
                ahead = ReadAhead(events: read.filter { busy[$0.id] == nil }, stale: false)
            }
            func take() -> [(id: String, url: String)] {
                var taken: [(id: String, url: String)] = []
                // A backlog lists one endpoint many times in a row: one that has its share is
                // passed over without looking it up again.
                var refused: String?
                ahead.events.removeAll { event in
                    guard inUse < concurrency, event.url != refused else { return false }
                    let held = load[event.url, default: 0]
                    // Within its share an endpoint always gets a slot; beyond it, only while as many stay free.
                    guard held < perEndpoint || (held < endpointCap && concurrency - inUse > perEndpoint) else {
                        refused = event.url
                        return false
                    }
                    refused = nil
                    load[event.url] = held + 1
                    inUse += 1
                    taken.append(event)
                    return true
                }
                return taken
            }
            var taken = take()
            if taken.isEmpty, !ahead.searchedOthers {
                // Every event of the list waits for its endpoint: other endpoints' may wait behind them.
                ahead.searchedOthers = true
                let listed = Set(ahead.events.map(\.url))
                let others = try store.read { db in
                    try db.webhooks.dueIDs(at: now, limit: (concurrency - inUse) * perEndpoint, excluding: (Set(blocked(busy)).union(listed)).sorted())
                }
                ahead.events += others.filter { busy[$0.id] == nil }
                taken = take()
            }
            return taken
        }
        for event in started {
            worker.spawn(event.id, lane: event.url) { [self] in
                guard let due = try? store.read({ db in try db.webhooks.pendingEvent(event.id, at: self.now()) }) ?? nil else { return }
                let outcome = attempt(due)
                try? record([(due, outcome)], at: self.now(), claimed: false)
                // A retry (or an endpoint turned off) changes what falls due when.
                if !(200..<300).contains(outcome.status ?? 0) { ahead.withLock { $0.stale = true } }
            }
        }
        return started.count
    }

    /// One pass driven by its caller instead of the thread (a test, on a host that does not
    /// dispatch by itself): attempts every event due now, at most the concurrency at once, and
    /// returns once their answers are recorded. What a pass leaves (a retry, an event waiting for
    /// an earlier one of its payment) is for the next pass.
    ///
    /// - Returns: how many it attempted.
    @discardableResult
    package func deliverDue() throws -> Int {
        let now = now()
        let due = try store.read { db in try db.webhooks.due(at: now, limit: concurrency) }
        let outcomes = Mutex<[(Due, Outcome)]>([])
        DispatchQueue.concurrentPerform(iterations: due.count) { index in
            let outcome = attempt(due[index])
            outcomes.withLock { $0.append((due[index], outcome)) }
        }
        try record(outcomes.withLock { $0 }, at: self.now(), claimed: false)
        return due.count
    }

    package struct Outcome: Sendable {
        package let status: Int?
        package let retryAfter: Int64?
        package let latency: Double
        package let error: String?
        package let excerpt: String?
    }

    private func attempt(_ event: Due) -> Outcome {
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000 }
        let scheme = WebhookScheme(rawValue: event.scheme) ?? .monei
        let secret = scheme == .monei ? (apiKey(event.merchant) ?? "") : event.secret
        var headers: HTTPClientHeaders = ["Content-Type": "application/json"]
        do {
            let signedAt = Int(wallClock.now().timeIntervalSince1970.rounded(.down))
            let signed =
                if scheme == .standard, let previous = event.previousSecret {
                    try WebhookSigner.headers(standardSecrets: [secret, previous], id: event.id, timestamp: signedAt, body: event.body)
                } else {
                    try WebhookSigner.headers(scheme: scheme, id: event.id, timestamp: signedAt, body: event.body, secret: secret)
                }
            for header in signed {
                headers.add(name: header.name, value: header.value)
            }
        } catch {
            return Outcome(status: nil, retryAfter: nil, latency: 0, error: "cannot sign: \(error)", excerpt: nil)
        }
        do {
            let request = HTTPClientRequest(method: .post, url: event.url, headers: headers, body: event.body)
            let response =
                if let own = operatorURL?(event.merchant), own == event.url {
                    try client.send(request)
                } else {
                    try client.send(request, checking: destinations)
                }
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            return Outcome(
                status: response.status, retryAfter: retryAfter, latency: elapsed(), error: nil,
                excerpt: String(response.bodyText.prefix(256)))
        } catch {
            return Outcome(status: nil, retryAfter: nil, latency: elapsed(), error: "\(error)", excerpt: nil)
        }
    }

    /// Records the answers; `claimed`: the events were claimed first (replicas), and one whose
    /// claim another replica took over meanwhile (this one was too slow) is that one's to record.
    ///
    /// Answered once committed, not synced: a crash of the process keeps the record, and one the
    /// machine's crash loses only sends the event again, with its id, which the receiver recognises.
    private func record(_ results: [(Due, Outcome)], at now: Int64, claimed: Bool) throws {
        try store.write(.committed) { db in
            for (event, outcome) in results {
                if claimed, try !db.webhooks.releaseClaim(event.id, replica: replica) { continue }
                let attempt = event.attempts + 1
                try db.webhooks.addAttempt(
                    event: event.id, attempt: attempt, at: now, status: outcome.status, latencyMs: outcome.latency, error: outcome.error,
                    responseExcerpt: outcome.excerpt)
                switch outcome.status {
                case let status? where (200..<300).contains(status):
                    try db.webhooks.markDelivered(event.id, attempts: attempt, at: now)
                case 410?:
                    // The receiver says it is gone: stop sending there. A payment's own callbackUrl
                    // answering 410 says nothing of the merchant's endpoint, which stays on.
                    try db.webhooks.markDisabled(event.id, attempts: attempt)
                    guard try !db.webhooks.wasSentToCallback(event.id) else { continue }
                    try db.webhooks.disableEndpoint(merchant: event.merchant, url: event.url, at: now)
                default:
                    // Every answer is an attempt: past the schedule's last wait the event fails,
                    // whatever the receiver asks. Its Retry-After may lengthen a wait (up to a day),
                    // never shorten it: `Retry-After: 0` must not make a retry loop.
                    guard attempt <= Self.retrySchedule.attempts ?? .max else {
                        try db.webhooks.markFailed(event.id, attempts: attempt)
                        continue
                    }
                    let asked = [429, 503].contains(outcome.status ?? 0) ? outcome.retryAfter.map { min($0, 86_400) * 1000 } : nil
                    let wait = max(Self.retrySchedule.wait(after: attempt), asked ?? 0)
                    try db.webhooks.reschedule(event.id, attempts: attempt, at: now + wait)
                }
            }
        }
    }
}
