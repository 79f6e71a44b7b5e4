import Foundation

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
        try JSONEncoder().encode(list().map { Kept(fault: $0, id: $0.id, applied: $0.applied, seen: $0.seen, endsAtMilliseconds: $0.endsAtMilliseconds) })
    }

    /// Replaces every fault with those of `data` (from ``exported()``), counters and ends as they were.
    public func replace(with data: Data) throws {
        let kept = try JSONDecoder().decode([Kept].self, from: data).map { kept in
            var fault = kept.fault
            fault.id = kept.id
            fault.applied = kept.applied
            fault.seen = kept.seen
            fault.endsAtMilliseconds = kept.endsAtMilliseconds
            return fault
        }
        replaceAll(kept)
    }
}
