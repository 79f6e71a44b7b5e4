import Foundation
import SandboxWire

extension FaultPlan {
    /// A fault as a snapshot keeps it: with its id, its counters and its end.
    private struct Kept: Codable {
        var fault: Fault
        var id: String
        var applied: Int
        var seen: Int
        var endsAtMilliseconds: Int64?
    }

    /// Every fault set, with its counters, as JSON (a snapshot's `<service>.faults.json`).
    public func exported() throws -> Data {
        try Self.encode(entries())
    }

    /// Replaces every fault with those of `data` (from ``exported()``), counters and ends as they were.
    public func replace(with data: Data) throws {
        try replaceAll(try Self.decode(data))
    }

    static func encode(_ entries: [Entry]) throws -> Data {
        try JSONEncoder().encode(
            entries.map { Kept(fault: $0.fault, id: $0.fault.id, applied: $0.fault.applied, seen: $0.seen, endsAtMilliseconds: $0.fault.endsAtMilliseconds) })
    }

    static func decode(_ data: Data) throws -> [Entry] {
        try JSONDecoder().decode([Kept].self, from: data).map { kept in
            var fault = kept.fault
            fault.id = kept.id
            fault.applied = kept.applied
            fault.endsAtMilliseconds = kept.endsAtMilliseconds
            return Entry(fault: fault, seen: kept.seen)
        }
    }
}
