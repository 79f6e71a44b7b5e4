import HostStorage
import FastJSON
import SandboxCore

/// The sessions found since the lifecycle's last write, by bearer token, so a device's requests
/// after the first skip the session lookup (a query joining the session and its device) and the
/// token's hash. The tokens stay in this process's memory, which
/// receives them on every request anyway; the database keeps only their hashes.
///
/// A session, its device and its terminal change only through ``Lifecycle/write(_:)`` (login,
/// logout, registration, unregistration, secure code, reset), and every such write empties the
/// cache once it has committed. A lookup remembers what it read only if no write ended meanwhile,
/// so the cache never answers with something older than the last write. Expiry depends on the
/// clock, not on writes: it is checked again on every use.
package final class SessionCache: Sendable {
    private struct State {
        /// Lifecycle writes so far: a lookup that started before the latest one is not remembered.
        package var generation: UInt64 = 0
        package var sessions: [String: Lifecycle.CurrentSession] = [:]
    }

    /// Sessions kept at most; past it the cache starts again empty.
    package static let capacity = 4096
    private let state = ReadMostly(State())
    /// Whether it keeps anything: not when other processes write the same database (replicas).
    private let enabled: Bool

    package init(enabled: Bool = true) { self.enabled = enabled }

    /// The session of this bearer token, if one was found since the last write.
    package func session(_ token: String) -> Lifecycle.CurrentSession? {
        guard enabled else { return nil }
        return state.read { $0.sessions[token] }
    }

    /// Where the lifecycle stands now: pass it to ``remember(_:since:)`` after the lookup.
    package var generation: UInt64 { state.read { $0.generation } }

    /// Keeps the session of `token` looked up after `generation` was read, unless a write ended since.
    package func remember(_ session: Lifecycle.CurrentSession, token: String, since generation: UInt64) {
        guard enabled else { return }
        state.write { state in
            guard state.generation == generation else { return }
            if state.sessions.count >= Self.capacity { state.sessions.removeAll(keepingCapacity: true) }
            state.sessions[token] = session
        }
    }

    /// A lifecycle write ended (committed or not): forget every session.
    package func invalidate() {
        state.write { state in
            state.generation += 1
            state.sessions.removeAll(keepingCapacity: true)
        }
    }
}
