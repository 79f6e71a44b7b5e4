import Foundation
import HostStorage
import SandboxCore
import SandboxHTTP
import SandboxStore
import Synchronization

/// What the replicas of a region's host on one PostgreSQL database share beside the rows: the
/// sandbox clock, the fault plan and whether the journal keeps bodies. Every replica takes them up
/// before each request (one query;
/// a second only when the fault plan changed) and when another replica's change is notified, so
/// a move of the clock, or a fault set, through one replica is in force on every other once its
/// answer came.
///
/// The clock: each move saves the offset with its next version, and a replica takes up a version
/// it has not seen, in version order whatever order the reads finish in. Only a new version is
/// taken up: a clock moved in this process alone (a test's) stays as moved until a replica moves
/// the shared one. The fault plan lives in the database (``Faults``), its counters too.
final class SharedState: Sendable {
    let store: Store
    let clock: SandboxClock
    let faults: FaultPlan
    let journal: RequestJournal
    /// The clock version last taken up (nil: none read yet).
    private let seenClock = Mutex<Int64?>(nil)

    init(store: Store, clock: SandboxClock, faults: FaultPlan, journal: RequestJournal) {
        self.store = store
        self.clock = clock
        self.faults = faults
        self.journal = journal
    }

    func follow() {
        guard let shared = try? HostRepository.sharedState(in: store) else { return }
        seenClock.withLock { seen in
            defer { seen = max(seen ?? 0, shared.clockVersion) }
            // Under the lock: a slower read of an older version cannot undo a newer one.
            if let last = seen, shared.clockVersion > last { clock.restore(offset: shared.clockOffset) }
        }
        if let bodies = shared.journalBodies, bodies != journal.capturesBodies { journal.capturesBodies = bodies }
        if shared.faultsVersion > faults.sharedVersion, let plan = try? store.read({ db in try db.host.faults() }) {
            faults.adopt(Data(plan), version: shared.faultsVersion)
        }
    }

    /// The fault plan of the replicas, kept in `host_identity`: every change one write.
    struct Faults: FaultSharing {
        let store: Store

        func update(_ change: (Data) throws -> Data) throws -> (Data, Int64) {
            try store.write { db in
                let plan = try change(Data(try db.host.faults()))
                let version = try db.host.saveFaults(Array(plan))
                // The other replicas look now, not only at their next request.
                db.notify(HostRepository.clockChannel)
                return (plan, version)
            }
        }
    }

    /// The request journal of the replicas, in `request_journal`: written beside the answers.
    struct Journal: JournalSharing {
        let store: Store
        private let trimming = JournalTrimming()

        init(store: Store) { self.store = store }

        func append(_ entries: [SharedJournalEntry], capacity: Int) throws {
            let due = trimming.due(adding: entries.map(\.surface), capacity: capacity)
            // Committed is enough: a journal entry lost to a crash of the machine is only a line less.
            try store.write(.committed) { db in
                try db.journal.append(
                    entries.map { (surface: $0.surface, requestId: $0.requestId, json: String(decoding: $0.json, as: UTF8.self)) },
                    capacity: capacity, trimming: due)
            }
            trimming.trimmed(due)
        }

        func recent(limit: Int) throws -> [Data] {
            try store.read { db in try db.journal.recent(limit: limit) }.map { Data($0.utf8) }
        }

        func find(requestId: String) throws -> Data? {
            try store.read { db in try db.journal.find(requestId: requestId) }.map { Data($0.utf8) }
        }

        func clear() throws {
            try store.write { db in try db.journal.deleteAll() }
        }

        func saveCapturesBodies(_ on: Bool) throws {
            try store.write { db in try db.host.saveJournalBodies(on) }
        }
    }

    /// Takes up the shared state, then answers as `inner` (one query per request, on a handler
    /// thread, never on the server's polling threads).
    struct Following: Responder {
        let inner: any Responder
        let shared: SharedState

        func respond(to request: Request) -> Response {
            shared.follow()
            return inner.respond(to: request)
        }

        func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
            HandlerThreads.shared.run { [inner, shared] in
                shared.follow()
                inner.respond(to: request, reply: reply)
            }
        }
    }
}
