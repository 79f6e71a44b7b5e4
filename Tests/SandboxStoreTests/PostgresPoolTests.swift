import Foundation
import SandboxStore
import SandboxTestSupport
import Testing

/// How a store keeps its PostgreSQL connections: opening one starts a process on the server, so a
/// burst's connections serve the next burst, and only the configured few stay open for long.
@Suite("PostgreSQL connections", .blocksThreads)
struct PostgresPoolTests {
    static func open(idleTimeout: Duration) throws -> Store {
        var configuration = Store.Configuration(maximumPostgresConnections: 6)
        configuration.maximumIdlePostgresConnections = 2
        configuration.postgresIdleTimeout = idleTimeout
        return try Store.open(postgres: try PostgresServer.shared().newDatabase(), migrations: [], configuration: configuration)
    }

    /// `count` reads at once, each holding its connection until all of them hold one.
    static func burst(_ store: Store, _ count: Int) throws {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let readers = (0..<count).map { _ in
            BackgroundThread {
                try store.read { db in
                    _ = try db.query("SELECT 1")
                    inside.signal()
                    release.wait()
                }
            }
        }
        for _ in 0..<count where inside.wait(timeout: .now() + 30) != .success {
            throw TestFailure("the \(count) reads never held a connection each")
        }
        for _ in 0..<count { release.signal() }
        for reader in readers { try reader.join() }
    }

    @Test("a burst's connections serve the next burst; those beyond the idle minimum close once idle for the timeout")
    func burstsShareConnections() throws {
        let store = try Self.open(idleTimeout: .seconds(600))
        let opened = store.postgresConnectionsOpened  // the migration's, now idle
        try Self.burst(store, 6)
        #expect(store.postgresConnectionsOpened == opened + 5)
        #expect(store.idlePostgresConnectionCount == 6)
        try Self.burst(store, 6)
        #expect(store.postgresConnectionsOpened == opened + 5, "the second burst opened connections again")

        // The pool's own pass when the oldest turns stale: nothing has waited ten minutes yet.
        store.closeIdleConnections(idleFor: .seconds(600))
        #expect(store.idlePostgresConnectionCount == 6)
        store.closeIdleConnections(idleFor: .zero)
        #expect(store.idlePostgresConnectionCount == 2)
        try Self.burst(store, 6)
        #expect(store.postgresConnectionsOpened == opened + 9)
    }

    @Test("with no idle timeout, a burst leaves only the idle minimum open")
    func noIdleTimeout() throws {
        let store = try Self.open(idleTimeout: .zero)
        let opened = store.postgresConnectionsOpened
        try Self.burst(store, 6)
        #expect(store.idlePostgresConnectionCount == 2)
        try Self.burst(store, 6)
        #expect(store.postgresConnectionsOpened == opened + 5 + 4)
    }
}
