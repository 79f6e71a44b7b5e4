import HostStorage
import SandboxCore
import SandboxStore
import Synchronization

/// A region's clock shared by the replicas of its host on one PostgreSQL database: the offset a
/// move saved in the database is taken up by every replica before its next request (and when the
/// move's notification arrives). Only a change of the saved offset is taken up: a clock moved in
/// this process alone (a test's) stays as moved until a replica moves the shared one.
final class SharedClock: Sendable {
    /// The offset last read from the database, as the bits of a `Double` (nil: none read yet).
    private let seen = Mutex<Double?>(nil)

    func follow(store: Store, clock: SandboxClock) {
        guard let offset = try? HostRepository.clockOffset(in: store) else { return }
        let changed = seen.withLock { seen in
            defer { seen = offset }
            return seen != nil && seen != offset
        }
        if changed { clock.restore(offset: offset) }
    }
}
