import Foundation
import SandboxTime
import SandboxWire
import Synchronization

/// The faults set on one service, tried in the order they were set: the first that takes a
/// request changes it. In memory only (a restart clears them), unless shared: replicas of a
/// service on one database keep the plan there (``FaultSharing``), so a fault set through one
/// is in force on all, and a counted fault counts the requests of all.
public final class FaultPlan: Sendable {
    private let clock: any TimeSource
    private let faults = Mutex<[Entry]>([])
    private let sequence = Atomic<Int>(0)
    /// How many faults are set, kept beside the list under its lock: a request reads it without the lock.
    private let count = Atomic<Int>(0)
    /// Where replicas keep the plan; nil: this process alone.
    private let sharing: (any FaultSharing)?
    /// The shared plan's version last taken up.
    private let version = Atomic<Int64>(0)

    /// A fault set, and how many matching requests a `share` fault has seen (never on the wire).
    struct Entry {
        var fault: Fault
        var seen = 0
    }

    public init(clock: any TimeSource, sharing: (any FaultSharing)? = nil) {
        self.clock = clock
        self.sharing = sharing
    }

    /// Runs `change` on the plan: in memory, or on the shared plan in one write of the database
    /// (the result taken up here at once).
    private func change<T>(_ change: (inout [Entry]) -> T) throws -> T {
        guard let sharing else {
            return faults.withLock { faults in
                defer { count.store(faults.count, ordering: .relaxed) }
                return change(&faults)
            }
        }
        var result: T?
        let (data, version) = try sharing.update { data in
            var entries = try Self.decode(data)
            result = change(&entries)
            return try Self.encode(entries)
        }
        adopt(data, version: version)
        return result!
    }

    /// Takes up the shared plan of `version` (`data`, from ``exported()``'s encoding) unless a
    /// later one is here already: what another replica set, cleared or counted.
    public func adopt(_ data: Data, version: Int64) {
        guard let entries = try? Self.decode(data) else { return }
        faults.withLock { faults in
            guard version > self.version.load(ordering: .relaxed) else { return }
            self.version.store(version, ordering: .relaxed)
            faults = entries
            count.store(faults.count, ordering: .relaxed)
            raiseSequence(past: entries)
        }
    }

    /// The version of the shared plan this plan holds (0: none taken up).
    public var sharedVersion: Int64 { version.load(ordering: .relaxed) }

    /// Sets a fault that ``Fault/problem`` found nothing wrong with; answers it with its id.
    public func add(_ fault: Fault) throws -> Fault {
        var fault = fault
        if let seconds = fault.seconds {
            fault.endsAtMilliseconds = clock.nowMilliseconds() + Int64((seconds * 1000).rounded())
        }
        return try change { faults in
            // Past every id in the plan, and past every id this process handed out.
            raiseSequence(past: faults)
            fault.id = "fault_" + String(sequence.add(1, ordering: .relaxed).newValue)
            faults.append(Entry(fault: fault))
            return fault
        }
    }

    /// The faults still in force.
    public func list() -> [Fault] { entries().map(\.fault) }

    /// The faults still in force, with what they have seen.
    func entries() -> [Entry] {
        let now = clock.nowMilliseconds()
        return faults.withLock { faults in
            faults.removeAll { $0.fault.isSpent(at: now) }
            count.store(faults.count, ordering: .relaxed)
            return faults
        }
    }

    /// Clears one fault; false when there is none with that id.
    public func remove(id: String) throws -> Bool {
        try change { faults in
            let before = faults.count
            faults.removeAll { $0.fault.id == id }
            return faults.count < before
        }
    }

    /// Every fault becomes `kept` (a snapshot's, ids and counters as they were); new ids go on
    /// past the highest of them.
    func replaceAll(_ kept: [Entry]) throws {
        try change { faults in
            faults = kept
            raiseSequence(past: kept)
        }
    }

    private func raiseSequence(past entries: [Entry]) {
        let highest = entries.compactMap { Int($0.fault.id.dropFirst("fault_".count)) }.max() ?? 0
        while true {
            let current = sequence.load(ordering: .relaxed)
            guard current < highest else { break }
            if sequence.compareExchange(expected: current, desired: highest, ordering: .relaxed).exchanged { break }
        }
    }

    public func clear() throws {
        try change { faults in faults = [] }
    }

    /// The fault that takes this request, counted as applied; nil for most requests. Without any
    /// fault set this is one atomic load; shared, a request a fault may take is counted in the
    /// database (a database that cannot be written leaves the request alone).
    func take(method: String, path: String, surface: String) -> Fault? {
        guard count.load(ordering: .relaxed) > 0 else { return nil }
        let now = clock.nowMilliseconds()
        let pick = { (faults: inout [Entry]) -> Fault? in Self.take(from: &faults, method: method, path: path, surface: surface, now: now) }
        if sharing != nil {
            // Only a request some fault here admits costs a write.
            guard faults.withLock({ $0.contains { $0.fault.match.admits(method: method, path: path, surface: surface) } }) else { return nil }
            return (try? change(pick)) ?? nil
        }
        return faults.withLock { faults in
            defer { count.store(faults.count, ordering: .relaxed) }
            return pick(&faults)
        }
    }

    private static func take(from faults: inout [Entry], method: String, path: String, surface: String, now: Int64) -> Fault? {
        faults.removeAll { $0.fault.isSpent(at: now) }
        for index in faults.indices where faults[index].fault.match.admits(method: method, path: path, surface: surface) {
            if let share = faults[index].fault.share {
                // Spread evenly: the n-th match is taken when it crosses the next multiple of 1/share.
                let seen = faults[index].seen
                faults[index].seen += 1
                guard Int(Double(seen + 1) * share) > Int(Double(seen) * share) else { continue }
            }
            faults[index].fault.applied += 1
            let taken = faults[index].fault
            if let count = taken.count, taken.applied >= count { faults.remove(at: index) }
            return taken
        }
        return nil
    }
}

/// Where replicas of one service keep their fault plan: its JSON (``FaultPlan/exported()``'s
/// form) changed in one write, each change a new version.
public protocol FaultSharing: Sendable {
    /// Runs `change` on the shared plan's JSON (`[]` when none is saved) in one write transaction
    /// and saves what it returns as the next version.
    ///
    /// - Returns: the plan saved and its version.
    func update(_ change: (Data) throws -> Data) throws -> (Data, Int64)
}

extension Fault {
    func isSpent(at now: Int64) -> Bool {
        if let count, applied >= count { return true }
        if let endsAtMilliseconds, now >= endsAtMilliseconds { return true }
        return false
    }
}
