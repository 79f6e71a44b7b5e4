import SandboxTime
import Foundation
import SandboxWire
import Synchronization

/// The last requests a service answered, per surface, in memory (as WireMock's request journal):
/// what a tester reads to see what an app really sent and got.
///
/// Each surface keeps its last `capacity` entries (1,000 by default), so memory stays bounded
/// whatever the traffic. Bodies are kept only while ``capturesBodies`` is on, with card data and
/// secrets masked (``BodyMask``) when an entry is read, not on the connection's thread, and only
/// up to 16 KiB each (a larger one is noted by its size):
/// a surface's bodies take at most 2 × 16 KiB × 1,000 = 32 MiB, however large the requests.
///
/// ```swift
/// let journal = RequestJournal(clock: WallClock())
/// let entries = journal.entries(.init(surface: "terminal", status: 409))   // newest first
/// ```
public final class RequestJournal: Sendable {
    /// Which entries to list; every condition given must hold.
    public struct Filter: Sendable {
        public var surface: String?
        public var method: String?
        public var status: Int?
        /// Only refusals (status 400 and above).
        public var failedOnly: Bool
        /// The path contains this text.
        public var pathContains: String?
        public var subject: String?
        public var errorCode: String?
        public var limit: Int

        public init(
            surface: String? = nil, method: String? = nil, status: Int? = nil, failedOnly: Bool = false, pathContains: String? = nil,
            subject: String? = nil, errorCode: String? = nil, limit: Int = 100
        ) {
            self.surface = surface
            self.method = method
            self.status = status
            self.failedOnly = failedOnly
            self.pathContains = pathContains
            self.subject = subject
            self.errorCode = errorCode
            self.limit = limit
        }

        func admits(_ entry: JournalEntry) -> Bool {
            (surface == nil || entry.surface == surface) && (method == nil || entry.method == method)
                && (status == nil || entry.status == status) && (!failedOnly || entry.status >= 400)
                && (pathContains == nil || entry.path.contains(pathContains!)) && (subject == nil || entry.subject == subject)
                && (errorCode == nil || entry.errorCode == errorCode)
        }
    }

    /// One recorded answer: the entry (without bodies), its place in the service's order of
    /// answers, and its bodies as kept (masked only when read).
    private struct Recorded {
        let order: Int
        let entry: JournalEntry
        let request: BodyMask.Kept?
        let response: BodyMask.Kept?
    }

    /// A fixed-size ring of one surface's entries, oldest overwritten first.
    private struct Ring {
        var entries: [Recorded] = []
        var next = 0

        mutating func append(_ entry: Recorded, capacity: Int) {
            if entries.count < capacity {
                entries.append(entry)
            } else {
                entries[next] = entry
            }
            next = (next + 1) % capacity
        }
    }

    public let capacity: Int
    private let clock: any TimeSource
    private let rings = Mutex<[String: Ring]>([:])
    private let capturing = Atomic<Bool>(false)
    private let sequence = Atomic<Int>(0)

    public init(capacity: Int = 1000, clock: any TimeSource) {
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// Whether new entries keep their (masked) bodies.
    public var capturesBodies: Bool {
        get { capturing.load(ordering: .relaxed) }
        set { capturing.store(newValue, ordering: .relaxed) }
    }

    /// Records one answered request.
    func record(
        request: Request, surface: String, response: Response, milliseconds: Double, fault: String?, dropped: Bool
    ) {
        let capture = capturesBodies
        let entry = JournalEntry(
            requestId: request.id, timeMilliseconds: clock.nowMilliseconds(), surface: surface,
            method: request.method, path: request.path, status: response.status, milliseconds: (milliseconds * 1000).rounded() / 1000,
            subject: response.journalSubject, errorCode: response.status >= 400 ? Self.errorCode(response.body) : nil, fault: fault,
            dropped: dropped, requestBody: nil, responseBody: nil)
        // The bodies are kept as they came (bounded); masking them waits until someone reads the entry.
        let recorded = Recorded(
            order: sequence.add(1, ordering: .relaxed).newValue, entry: entry,
            request: capture ? BodyMask.kept(request.body) : nil, response: capture ? BodyMask.kept(response.body) : nil)
        rings.withLock { $0[surface, default: Ring()].append(recorded, capacity: capacity) }
    }

    /// The entries that pass `filter`, newest first, without bodies.
    public func entries(_ filter: Filter = Filter()) -> [JournalEntry] {
        let all = rings.withLock { rings in rings.values.flatMap(\.entries) }
        return all.filter { filter.admits($0.entry) }.sorted { $0.order > $1.order }.prefix(max(0, filter.limit)).map(\.entry)
    }

    /// One entry with its bodies (when they were captured), masked now.
    public func entry(id: String) -> JournalEntry? {
        guard let found = rings.withLock({ rings in rings.values.lazy.flatMap(\.entries).first { $0.entry.requestId == id } }) else {
            return nil
        }
        return found.entry.with(requestBody: found.request?.shown, responseBody: found.response?.shown)
    }

    /// Forgets every entry.
    public func clear() {
        rings.withLock { $0 = [:] }
    }

    /// The `error.code` of an envelope.
    static func errorCode(_ body: [UInt8]) -> String? {
        (try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(body)))?.error.code.rawValue
    }
}
