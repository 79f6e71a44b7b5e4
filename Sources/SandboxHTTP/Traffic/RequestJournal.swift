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

        mutating func append(_ entry: consuming Recorded, capacity: Int) {
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
    /// Where replicas keep one journal; nil: this process's rings.
    private let sharing: (any JournalSharing)?
    /// Entries not yet written to the shared journal, oldest first.
    private let pending = Mutex<[SharedJournalEntry]>([])
    /// Whether a thread is writing `pending` out.
    private let flushing = Atomic<Bool>(false)
    /// Held while a batch is taken and written, so that a read waits for a write under way.
    private let writing = Mutex<Void>(())

    public init(capacity: Int = 1000, clock: any TimeSource, sharing: (any JournalSharing)? = nil) {
        self.capacity = max(1, capacity)
        self.clock = clock
        self.sharing = sharing
    }

    /// An entry as the shared journal keeps it: its bodies masked when written.
    private struct Stored: Codable {
        var requestId: String
        var timeMilliseconds: Int64
        var surface: String
        var method: String
        var path: String
        var status: Int
        var milliseconds: Double
        var subject: String?
        var errorCode: String?
        var fault: String?
        var dropped: Bool
        var requestBody: String?
        var responseBody: String?

        init(_ entry: JournalEntry) {
            requestId = entry.requestId
            timeMilliseconds = entry.timeMilliseconds
            surface = entry.surface
            method = entry.method
            path = entry.path
            status = entry.status
            milliseconds = entry.milliseconds
            subject = entry.subject
            errorCode = entry.errorCode
            fault = entry.fault
            dropped = entry.dropped
            requestBody = entry.requestBody
            responseBody = entry.responseBody
        }

        var entry: JournalEntry {
            JournalEntry(
                requestId: requestId, timeMilliseconds: timeMilliseconds, surface: surface, method: method, path: path, status: status,
                milliseconds: milliseconds, subject: subject, errorCode: errorCode, fault: fault, dropped: dropped,
                requestBody: requestBody, responseBody: responseBody)
        }
    }

    /// Writes what is pending to the shared journal, on a thread of the system's pool (the answer
    /// never waits for it); one writer at a time, in order.
    private func flushSoon() {
        guard let sharing, flushing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            while true {
                writeOut(to: sharing)
                flushing.store(false, ordering: .releasing)
                // Something came while the flag was up: go on if no one else took it.
                guard pending.withLock({ !$0.isEmpty }), flushing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
                else { return }
            }
        }
    }

    /// Writes what is pending now, after any write under way, so that a read through this
    /// replica sees every request it answered before.
    private func flushNow() {
        guard let sharing else { return }
        writeOut(to: sharing)
    }

    private func writeOut(to sharing: any JournalSharing) {
        writing.withLock { _ in
            let batch = pending.withLock { pending in defer { pending = [] }; return pending }
            if !batch.isEmpty { try? sharing.append(batch, capacity: capacity) }
        }
    }

    private func shared(limit: Int) -> [JournalEntry] {
        flushNow()
        let decoder = JSONDecoder()
        return ((try? sharing?.recent(limit: limit)) ?? []).compactMap { try? decoder.decode(Stored.self, from: $0).entry }
    }

    /// Whether new entries keep their (masked) bodies: this process's setting, which a replica
    /// takes up from the shared one (``capture(bodies:)`` sets both).
    public var capturesBodies: Bool {
        get { capturing.load(ordering: .relaxed) }
        set { capturing.store(newValue, ordering: .relaxed) }
    }

    /// Starts or stops keeping bodies, for every replica when the journal is shared.
    public func capture(bodies: Bool) throws {
        try sharing?.saveCapturesBodies(bodies)
        capturesBodies = bodies
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
        if sharing != nil {
            // Replicas: masked now, and written out beside the answers.
            let stored = Stored(entry.with(
                requestBody: capture ? BodyMask.kept(request.body)?.shown : nil, responseBody: capture ? BodyMask.kept(response.body)?.shown : nil))
            guard let json = try? JSONEncoder().encode(stored) else { return }
            pending.withLock { $0.append(SharedJournalEntry(surface: surface, requestId: request.id, json: json)) }
            flushSoon()
            return
        }
        // The bodies are kept as they came (bounded); masking them waits until someone reads the entry.
        // Moved into the ring, not copied (a copy of an entry was nine retains).
        var recorded: Recorded? = Recorded(
            order: sequence.add(1, ordering: .relaxed).newValue, entry: entry,
            request: capture ? BodyMask.kept(request.body) : nil, response: capture ? BodyMask.kept(response.body) : nil)
        rings.withLock { $0[surface, default: Ring()].append(recorded.moveOut()!, capacity: capacity) }
    }

    /// The entries that pass `filter`, newest first, without bodies.
    public func entries(_ filter: Filter = Filter()) -> [JournalEntry] {
        if sharing != nil {
            // Newest first already; every surface's latest, as many as the rings would hold.
            return Array(shared(limit: capacity * 8).filter { filter.admits($0) }.map { $0.with(requestBody: nil, responseBody: nil) }
                .prefix(max(0, filter.limit)))
        }
        let all = rings.withLock { rings in rings.values.flatMap(\.entries) }
        return all.filter { filter.admits($0.entry) }.sorted { $0.order > $1.order }.prefix(max(0, filter.limit)).map(\.entry)
    }

    /// One entry with its bodies (when they were captured), masked now.
    public func entry(id: String) -> JournalEntry? {
        if let sharing {
            flushNow()
            return (try? sharing.find(requestId: id)).flatMap { $0 }.flatMap { try? JSONDecoder().decode(Stored.self, from: $0).entry }
        }
        guard let found = rings.withLock({ rings in rings.values.lazy.flatMap(\.entries).first { $0.entry.requestId == id } }) else {
            return nil
        }
        return found.entry.with(requestBody: found.request?.shown, responseBody: found.response?.shown)
    }

    /// Forgets every entry.
    public func clear() {
        rings.withLock { $0 = [:] }
        writing.withLock { _ in
            pending.withLock { $0 = [] }
            try? sharing?.clear()
        }
    }

    /// The `error.code` of an envelope.
    static func errorCode(_ body: [UInt8]) -> String? {
        (try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(body)))?.error.code.rawValue
    }
}

/// One entry for the shared journal: its surface, its request id and its JSON.
public struct SharedJournalEntry: Sendable {
    public let surface: String
    public let requestId: String
    public let json: Data
}

/// Where the replicas of one service keep one request journal.
public protocol JournalSharing: Sendable {
    /// Appends `entries` (oldest first) and keeps at most `capacity` entries per surface.
    func append(_ entries: [SharedJournalEntry], capacity: Int) throws
    /// The JSON of the latest `limit` entries, newest first.
    func recent(limit: Int) throws -> [Data]
    /// The JSON of the entry of `requestId`.
    func find(requestId: String) throws -> Data?
    func clear() throws
    /// Saves whether entries keep their bodies; each replica takes it up before its next request.
    func saveCapturesBodies(_ on: Bool) throws
}

extension Optional {
    /// The value, leaving nil behind: moved out, not copied (Swift 6's `take()`, which the standard
    /// library of older Apple SDKs lacks).
    fileprivate mutating func moveOut() -> Wrapped? {
        let value = consume self
        self = nil
        return value
    }
}
