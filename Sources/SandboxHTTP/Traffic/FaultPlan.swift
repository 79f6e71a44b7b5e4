import SandboxTime
import SandboxWire
import Synchronization

/// The faults set on one service, in memory only (a restart clears them), tried in the order they
/// were set: the first that takes a request changes it.
public final class FaultPlan: Sendable {
    private let clock: any TimeSource
    private let faults = Mutex<[Entry]>([])
    private let sequence = Atomic<Int>(0)
    /// How many faults are set, kept beside the list under its lock: a request reads it without the lock.
    private let count = Atomic<Int>(0)

    /// A fault set, and how many matching requests a `share` fault has seen (never on the wire).
    struct Entry {
        var fault: Fault
        var seen = 0
    }

    public init(clock: any TimeSource) {
        self.clock = clock
    }

    /// Sets a fault that ``Fault/problem`` found nothing wrong with; answers it with its id.
    public func add(_ fault: Fault) -> Fault {
        var fault = fault
        fault.id = "fault_" + String(sequence.add(1, ordering: .relaxed).newValue)
        if let seconds = fault.seconds {
            fault.endsAtMilliseconds = clock.nowMilliseconds() + Int64((seconds * 1000).rounded())
        }
        faults.withLock { faults in
            faults.append(Entry(fault: fault))
            count.store(faults.count, ordering: .relaxed)
        }
        return fault
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
    public func remove(id: String) -> Bool {
        faults.withLock { faults in
            let before = faults.count
            faults.removeAll { $0.fault.id == id }
            count.store(faults.count, ordering: .relaxed)
            return faults.count < before
        }
    }

    /// Every fault becomes `kept` (a snapshot's, ids and counters as they were); new ids go on
    /// past the highest of them.
    func replaceAll(_ kept: [Entry]) {
        let highest = kept.compactMap { Int($0.fault.id.dropFirst("fault_".count)) }.max() ?? 0
        faults.withLock { faults in
            faults = kept
            count.store(faults.count, ordering: .relaxed)
            while true {
                let current = sequence.load(ordering: .relaxed)
                guard current < highest else { break }
                if sequence.compareExchange(expected: current, desired: highest, ordering: .relaxed).exchanged { break }
            }
        }
    }

    public func clear() {
        faults.withLock { faults in
            faults = []
            count.store(0, ordering: .relaxed)
        }
    }

    /// The fault that takes this request, counted as applied; nil for most requests. Without any
    /// fault set this is one atomic load.
    func take(method: String, path: String, surface: String) -> Fault? {
        guard count.load(ordering: .relaxed) > 0 else { return nil }
        let now = clock.nowMilliseconds()
        return faults.withLock { faults in
            defer { count.store(faults.count, ordering: .relaxed) }
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
}

extension Fault {
    func isSpent(at now: Int64) -> Bool {
        if let count, applied >= count { return true }
        if let endsAtMilliseconds, now >= endsAtMilliseconds { return true }
        return false
    }
}
