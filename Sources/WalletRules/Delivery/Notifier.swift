import WalletStorage
import SandboxTime
import Foundation
import SandboxCore
import SandboxHTTPClient
import Synchronization

/// Delivers the outbox to the hosts: each notification signed with its region's secret, `POST
/// <host>/provider/v1/notifications`, retried in real time with a doubling backoff until the
/// host answers 2xx (taken) or 409 (refused). The outbox is in the database, so what was not
/// delivered before a restart is delivered after it.
///
/// One thread at a time delivers an order's notifications, oldest first. A customer's action
/// (Pay, Decline, Expire) delivers its order's on the request's own thread, at once
/// (``deliverNow(orderId:)``): Pay answers once the host took the payment, and a hop through the
/// notifier's thread would add a wake-up and a thread to every payment. The notifier's thread
/// delivers the rest (retries, an order's deadline, a rule) and what a restart left pending.
///
/// Wallet replicas on one PostgreSQL database share the outbox: a notification is held by the
/// replica sending it (``OutboxRepository/hold(_:due:until:)``), so one replica sends it; one that
/// dies lets go when the hold ends, and the host takes a notification sent twice once, by its id.
///
/// The wallet only connects to the hosts it was configured with (``WalletSimulator/Configuration/hostURLs``);
/// a notification for a region without one waits, retried, until one is set.
package final class Notifier: Sendable {
    /// How the notifier retries.
    package struct Policy: Sendable {
        package var firstRetry: Duration
        package var longestRetry: Duration
        /// Orders the notifier's thread delivers for at once (a customer's own action is not counted).
        package var concurrency: Int
        package var timeout: Duration

        package init(firstRetry: Duration, longestRetry: Duration, concurrency: Int, timeout: Duration) {
            (self.firstRetry, self.longestRetry, self.concurrency, self.timeout) = (firstRetry, longestRetry, concurrency, timeout)
        }
    }

    private let book: OrderBook
    private let policy: Policy
    private let hostURL: @Sendable (String) -> String?
    private let client: HTTPClient
    private let running = Atomic<Bool>(false)
    /// The thread, and the orders whose notifications a thread is delivering (claimed by order id).
    private let worker: OutboxWorker
    private let retries: RetrySchedule
    /// How long a replica holds a notification it sends (real time, ms; nil: one process owns the
    /// outbox). Far past a delivery's timeout.
    private let hold: Int64?

    package init(book: OrderBook, policy: Policy, hostURL: @escaping @Sendable (String) -> String?) {
        self.book = book
        self.policy = policy
        self.hostURL = hostURL
        worker = OutboxWorker(name: "wallet-notifier", concurrency: policy.concurrency, drainTimeout: policy.timeout + .seconds(1))
        retries = .doubling(first: Self.milliseconds(policy.firstRetry), longest: Self.milliseconds(policy.longestRetry))
        hold = book.store.engine == .postgres ? Self.milliseconds(policy.timeout + .seconds(10)) : nil
        client = HTTPClient(
            configuration: .init(
                connectTimeout: .seconds(2), totalTimeout: policy.timeout, maxResponseBodySize: 64 * 1024,
                // The notifier's own threads and the customers' Pay, which deliver on their own
                // request's thread (32 devices paying at once), keep their connections alive.
                userAgent: "TapSandbox-Wallet/1.0", maxIdleHandles: policy.concurrency + 32))
    }

    package func start() {
        guard !running.exchange(true, ordering: .sequentiallyConsistent) else { return }
        book.setDeliverer { [weak self] orderId in self?.deliverNow(orderId: orderId) }
        book.outboxChanged.observe { [worker] in worker.wake() }
        worker.start { [self] in
            if ((try? startDue()) ?? 0) > 0 { return nil }
            // Not the notifications of orders being delivered now: their thread goes on to them
            // (waiting for one of those would wake this thread every millisecond).
            let busy = Set(worker.inFlight.keys)
            let next = (try? book.store.read { db in try db.outbox.nextDue(excluding: busy) }) ?? nil
            // Until the next retry is due, or a change wakes it (nothing pending: until a change).
            return DueWorker.sleep(milliseconds: next.map { max(1, $0 - book.realTime.nowMilliseconds()) })
        }
    }

    /// Stops taking notifications and waits for those in flight.
    package func stop() {
        guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
        book.setDeliverer(nil)
        book.outboxChanged.observe(nil)
        worker.stop()
    }

    /// Delivers the order's pending notifications now, on the calling thread, whether due or
    /// waiting for a retry (the customer acted: the host may be back). When another thread is
    /// delivering for the order, it goes on to this one too.
    package func deliverNow(orderId: String) {
        guard running.load(ordering: .sequentiallyConsistent), worker.claim(orderId) else {
            book.outboxChanged.broadcast()
            return
        }
        // A notification it leaves waits for its retry. The retry's write woke the notifier's
        // thread while this order was still claimed here, so that thread skipped it and may now
        // sleep with no timeout: wake it again once the order is free.
        let leftRetry = drain(orderId, dueBy: nil)
        worker.release(orderId, wake: leftRetry)
    }

    /// Starts the deliveries that are due, each order's on a thread of its own (it blocks on the
    /// network); an order ends its claim when its thread is done, which wakes the notifier to look
    /// at what is left (a notification queued meanwhile, a retry written while it was claimed).
    private func startDue() throws -> Int {
        let busy = worker.inFlight
        let free = worker.free
        guard free > 0 else { return 0 }
        let now = book.realTime.nowMilliseconds()
        let due = try book.store.read { db in try db.outbox.due(at: now, limit: free + busy.count) }
            .filter { busy[$0.orderId] == nil }.prefix(free)
        var started = 0
        for entry in due where worker.spawn(entry.orderId, { [self] in drain(entry.orderId, dueBy: now) }) {
            started += 1
        }
        return started
    }

    /// Delivers the order's pending notifications oldest first (those due by `dueBy`, or all),
    /// until the outbox has none left or one is not taken (it waits for its retry). Read afresh
    /// each time: another thread may have delivered it before this one claimed the order.
    ///
    /// - Returns: whether a notification was left waiting for its retry.
    @discardableResult
    private func drain(_ orderId: String, dueBy: Int64?) -> Bool {
        while let (entry, due) = (try? book.store.read({ db in try db.outbox.oldestPending(orderId: orderId) })) ?? nil,
            due <= dueBy ?? .max
        {
            if let hold {
                // Replicas share the outbox: held first. One another replica holds, or one waiting
                // for its retry, is not this thread's now (a customer's action does not hurry it).
                let now = book.realTime.nowMilliseconds()
                guard (try? book.store.write({ db in try db.outbox.hold(entry.seq, due: now, until: now + hold) })) == true else { return true }
            }
            guard deliver(entry) else { return true }
        }
        return false
    }

    /// Sends one notification and records the host's answer.
    ///
    /// - Returns: whether the host took or refused it (false: it waits for its retry).
    private func deliver(_ entry: OutboxEntry) -> Bool {
        guard let base = hostURL(entry.region) else {
            return retry(entry, status: nil, error: "no host is configured for region \(entry.region)")
        }
        guard let secret = book.data.secrets[entry.region] else {
            return retry(entry, status: nil, error: "wallet.json has no secret for region \(entry.region)")
        }
        var headers: HTTPClientHeaders = ["Content-Type": "application/json"]
        let timestamp = Int(book.realTime.now().timeIntervalSince1970.rounded(.down))
        for (name, value) in ProviderSignature.headers(region: entry.region, secret: secret, body: entry.body, timestamp: timestamp) {
            headers.add(name: name, value: value)
        }
        let request = HTTPClientRequest(method: .post, url: base + "/provider/v1/notifications", headers: headers, body: entry.body)
        let response: HTTPClientResponse
        do {
            response = try client.send(request)
        } catch {
            return retry(entry, status: nil, error: "\(error)")
        }
        let answeredAt = book.realTime.nowMilliseconds()
        let answer: OrderBook.Answer
        switch response.status {
        case 200..<300: answer = .acknowledged(status: response.status)
        case 409: answer = .refused(message: Self.message(of: response) ?? "The host refused the notification.")
        default: return retry(entry, status: response.status, error: Self.message(of: response) ?? "HTTP \(response.status)")
        }
        do {
            try book.record(entry, answer, answeredAt: answeredAt)
            return true
        } catch {
            return retry(entry, status: response.status, error: "\(error)")
        }
    }

    /// Schedules the notification's next attempt.
    ///
    /// - Returns: false (it was not taken).
    private func retry(_ entry: OutboxEntry, status: Int?, error: String) -> Bool {
        let at = book.realTime.nowMilliseconds() + retries.wait(after: entry.attempts + 1)
        try? book.store.write { db in try db.outbox.retry(entry.seq, at: at, status: status, error: String(error.prefix(500))) }
        // The notifier's thread sleeps until the next retry it knows of: this one may be sooner
        // (a customer's own delivery failed), so it looks again.
        book.outboxChanged.broadcast()
        return false
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// The message of the host's error envelope.
    private static func message(of response: HTTPClientResponse) -> String? {
        struct Envelope: Decodable { struct Body: Decodable { let message: String? }; let error: Body? }
        return (try? JSONDecoder().decode(Envelope.self, from: Data(response.body)))?.error?.message
    }
}
