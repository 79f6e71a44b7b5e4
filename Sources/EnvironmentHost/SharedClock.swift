import HostStorage
import SandboxHTTP
import SandboxCore
import SandboxStore
import Synchronization

/// A region's clock shared by the replicas of its host on one PostgreSQL database: each move
/// saves the offset with the next version number, and every replica takes up a version it has not
/// seen before its next request (and when the move's notification arrives), in version order
/// whatever order the reads finish in. Only a new version is taken up: a clock moved in this
/// process alone (a test's) stays as moved until a replica moves the shared one.
final class SharedClock: Sendable {
    /// The version last taken up (nil: none read yet).
    private let seen = Mutex<Int64?>(nil)

    func follow(store: Store, clock: SandboxClock) {
        guard let shared = try? HostRepository.sharedClock(in: store) else { return }
        seen.withLock { seen in
            defer { seen = max(seen ?? 0, shared.version) }
            // Under the lock: a slower read of an older version cannot undo a newer one.
            if let last = seen, shared.version > last { clock.restore(offset: shared.offset) }
        }
    }
}

extension SharedClock {
    /// Takes up the shared clock, then answers as `inner`: a move through another replica is in
    /// force here once that move's answer came (one query per request, on a handler thread, never
    /// on the server's polling threads).
    struct Following: Responder {
        let inner: any Responder
        let follow: @Sendable () -> Void

        func respond(to request: Request) -> Response {
            follow()
            return inner.respond(to: request)
        }

        func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
            HandlerThreads.shared.run { [inner, follow] in
                follow()
                inner.respond(to: request, reply: reply)
            }
        }
    }
}
