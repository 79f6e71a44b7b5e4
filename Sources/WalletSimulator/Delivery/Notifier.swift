import Clocks
import Foundation
import SandboxHTTP
import SandboxHTTPClient
import Synchronization

/// Delivers the outbox to the hosts: each notification signed with its region's secret, `POST
/// <host>/provider/v1/notifications`, retried in real time with a doubling backoff until the
/// host answers 2xx (taken) or 409 (refused). The outbox is in the database, so what was not
/// delivered before a restart is delivered after it.
///
/// The wallet only connects to the hosts it was configured with (``WalletSimulator/Configuration/hostURLs``);
/// a notification for a region without one waits, retried, until one is set.
final class Notifier: Sendable {
    /// How the notifier retries.
    struct Policy: Sendable {
        var firstRetry: Duration
        var longestRetry: Duration
        /// Deliveries in flight at once (one per order at most).
        var concurrency: Int
        var timeout: Duration
    }

    private let book: OrderBook
    private let policy: Policy
    private let hostURL: @Sendable (String) -> String?
    private let client: HTTPClient
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let inFlight = Mutex<Set<Int64>>([])

    init(book: OrderBook, policy: Policy, hostURL: @escaping @Sendable (String) -> String?) {
        self.book = book
        self.policy = policy
        self.hostURL = hostURL
        client = HTTPClient(
            configuration: .init(
                connectTimeout: .seconds(2), totalTimeout: policy.timeout, maxResponseBodySize: 64 * 1024,
                userAgent: "TapSandbox-Wallet/1.0", maxIdleHandles: policy.concurrency))
    }

    func start() {
        guard !running.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let thread = Thread { [self] in
            while running.load(ordering: .sequentiallyConsistent) {
                let mark = book.outboxChanged.mark
                let started = (try? startDue()) ?? 0
                if started == 0 {
                    let next = (try? book.store.read { db in try db.outbox.nextDue() }) ?? nil
                    let now = book.realTime.nowMilliseconds()
                    let wait = next.map { max(1, min(100, $0 - now)) } ?? 100
                    book.outboxChanged.wait(after: mark, until: Date().addingTimeInterval(Double(wait) / 1000))
                }
            }
            finished.signal()
        }
        thread.name = "wallet-notifier"
        thread.start()
    }

    /// Stops taking notifications and waits for those in flight.
    func stop() {
        guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
        book.outboxChanged.broadcast()
        finished.wait()
        let deadline = Date().addingTimeInterval(Double(policy.timeout.components.seconds) + 1)
        while !inFlight.withLock({ $0.isEmpty }) && Date() < deadline { usleep(5_000) }
    }

    /// Starts the deliveries that are due, each on a thread of its own (it blocks on the network).
    private func startDue() throws -> Int {
        let busy = inFlight.withLock { $0 }
        let free = policy.concurrency - busy.count
        guard free > 0 else { return 0 }
        let now = book.realTime.nowMilliseconds()
        let due = try book.store.read { db in try db.outbox.due(at: now, limit: free + busy.count) }
            .filter { !busy.contains($0.seq) }.prefix(free)
        for entry in due {
            inFlight.withLock { _ = $0.insert(entry.seq) }
            Thread { [self] in
                deliver(entry)
                inFlight.withLock { _ = $0.remove(entry.seq) }
                book.outboxChanged.broadcast()
            }.start()
        }
        return due.count
    }

    private func deliver(_ entry: OutboxEntry) {
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
        do {
            let response = try client.send(request)
            switch response.status {
            case 200..<300:
                try book.record(entry, .acknowledged(status: response.status))
            case 409:
                try book.record(entry, .refused(message: Self.message(of: response) ?? "The host refused the notification."))
            default:
                retry(entry, status: response.status, error: Self.message(of: response) ?? "HTTP \(response.status)")
            }
        } catch {
            retry(entry, status: nil, error: "\(error)")
        }
    }

    private func retry(_ entry: OutboxEntry, status: Int?, error: String) {
        let first = Double(policy.firstRetry.components.seconds) * 1000 + Double(policy.firstRetry.components.attoseconds) / 1e15
        let longest = Double(policy.longestRetry.components.seconds) * 1000 + Double(policy.longestRetry.components.attoseconds) / 1e15
        let delay = min(longest, first * pow(2, Double(min(entry.attempts, 30))))
        let at = book.realTime.nowMilliseconds() + Int64(delay)
        try? book.store.write { db in try db.outbox.retry(entry.seq, at: at, status: status, error: String(error.prefix(500))) }
    }

    /// The message of the host's error envelope.
    private static func message(of response: HTTPClientResponse) -> String? {
        struct Envelope: Decodable { struct Body: Decodable { let message: String? }; let error: Body? }
        return (try? JSONDecoder().decode(Envelope.self, from: Data(response.body)))?.error?.message
    }
}
