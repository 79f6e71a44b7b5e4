import HostRules
import HostStorage
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxStore

/// Snapshots of a host (`/_sandbox/snapshots`): its database, whose rows keep the clock offset, and
/// its faults, as `<snapshots>/<name>/<region>.sqlite` and `<region>.faults.json`.
extension EnvironmentHost {
    static func addSnapshotRoutes(
        to router: inout Router, _ lifecycle: Lifecycle, shelf: SnapshotShelf, gate: RequestGate, faults: FaultPlan,
        fixtures: RegionFixtures, clock: SandboxClock, afterRestore: @escaping @Sendable () throws -> Void
    ) {
        let store = lifecycle.store
        router.addSnapshotRoutes(
            shelf: shelf, gate: gate,
            save: { name in
                // The faults first: the database, moved in last, makes the snapshot whole.
                try FileManager.default.createDirectory(at: shelf.location(of: name).deletingLastPathComponent(), withIntermediateDirectories: true)
                try faults.exported().write(to: shelf.sidecar("faults.json", of: name), options: .atomic)
                return try shelf.save(name) { url in try store.read { db in try db.backup(to: url.path) } }
            },
            restore: { name in
                let kept = (try? Data(contentsOf: shelf.sidecar("faults.json", of: name))) ?? Data("[]".utf8)
                let offset: Double
                do {
                    offset = try lifecycle.restore(from: shelf.location(of: name).path, fixtures)
                } catch let mismatch as Lifecycle.SnapshotMismatch {
                    throw HTTPError(
                        status: 409, code: .snapshotMismatch,
                        message: "Snapshot '\(name)' was saved by the \(mismatch.region) host, not by \(lifecycle.region.id): nothing was restored.")
                } catch let error as DatabaseError where error == .schemaMismatch {
                    throw HTTPError(
                        status: 409, code: .snapshotMismatch,
                        message: "Snapshot '\(name)' was saved by a host of another version (\(error.message)): nothing was restored.")
                }
                clock.restore(offset: offset)
                // Saved again as a new move: replicas on one PostgreSQL database take the snapshot's clock up too.
                try lifecycle.store.write { db in try db.host.saveClockOffset(offset) }
                try faults.replace(with: kept)
                try afterRestore()
            })
    }
}
