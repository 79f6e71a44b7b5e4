import CommandLineSupport
import Foundation

/// The locks a service holds on its data directory while it runs (``ServiceLock``): one per
/// database it opens (`eu.lock` beside `eu.sqlite`, `wallet.lock` beside `wallet.sqlite`), and for
/// `sandbox up` also `sandbox.lock`, which says whether the `endpoints.json` beside it is live.
/// So a second `sandbox up` on one `--data-dir`, or a `sandbox-host --env EU` beside a running
/// `sandbox up`, refuses to start, while hosts of different regions share one volume (compose).
final class DataDirectoryLocks: Sendable {
    private let locks: [ServiceLock]

    private init(_ locks: [ServiceLock]) { self.locks = locks }

    /// Takes the lock of each database in `databases` (and `sandbox.lock` when `sandbox` is true),
    /// all or none.
    static func acquire(
        _ directory: URL, databases: [URL], sandbox: Bool, command: String, ports: [Int]
    ) throws(UsageError) -> DataDirectoryLocks {
        var files = databases.map { $0.deletingPathExtension().appendingPathExtension("lock") }
        if sandbox { files.insert(directory.appendingPathComponent(SandboxEndpoints.lockFile), at: 0) }
        var taken: [ServiceLock] = []
        do {
            for file in files {
                taken.append(try ServiceLock.acquire(file, holder: .init(command: command, ports: ports)))
            }
        } catch {
            for lock in taken { lock.release() }
            throw error
        }
        return DataDirectoryLocks(taken)
    }

    /// Records where the service listens, once it does.
    func update(ports: [Int]) {
        for lock in locks { lock.update(ports: ports) }
    }

    func release() {
        for lock in locks.reversed() { lock.release() }
    }
}
