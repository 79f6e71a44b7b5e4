import Foundation
import SandboxStore
import SandboxTestSupport
import Testing

@Suite("Store concurrency", .blocksThreads)
struct StoreConcurrencyTests {
    @Test("a reader sees committed rows and none of a write still in progress")
    func readerIsolationDuringWrite() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        try store.write { try $0.run("INSERT INTO items(name) VALUES ('committed')") }

        let insideWrite = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let writer = BackgroundThread {
            try store.write { db in
                try db.run("INSERT INTO items(name) VALUES ('uncommitted')")
                insideWrite.signal()
                // Bounded, so a store whose reads wait for the writer fails instead of hanging.
                _ = readerDone.wait(timeout: .now() + .seconds(5))
            }
        }
        #expect(insideWrite.wait(timeout: .now() + .seconds(60)) == .success)

        let namesDuringWrite: [String] = try store.read { db in
            try db.query("SELECT name FROM items ORDER BY id").map { try $0["name"] }
        }
        readerDone.signal()
        try writer.join()

        #expect(namesDuringWrite == ["committed"])
        let namesAfter: [String] = try store.read { db in
            try db.query("SELECT name FROM items ORDER BY id").map { try $0["name"] }
        }
        #expect(namesAfter == ["committed", "uncommitted"])
    }

    @Test("a read does not wait for a long write to finish")
    func readDoesNotBlockOnWriter() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let writer = try HeldWrite(store, inserting: "slow")
        // The read runs on its own thread so that, if it blocked, the test could still release the writer.
        let reader = BackgroundThread { try store.read { try $0.count("items") } }
        let count = try reader.join(timeout: 3)
        writer.release()
        try writer.join()
        #expect(count == 0)
    }

    @Test("many concurrent reads and writes finish without busy errors, lost updates or torn transactions")
    func concurrentReadsAndWrites() throws {
        let store = try Store.temporary(migrations: [Migration(version: 1, name: "stress", sql: """
            CREATE TABLE events(id INTEGER PRIMARY KEY, writer INTEGER NOT NULL);
            CREATE TABLE counter(id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
            INSERT INTO counter VALUES (1, 0);
            """)])
        let writers = 8, writesEach = 40, readers = 8, readsEach = 80

        let writerThreads = (0..<writers).map { writer in
            BackgroundThread {
                for _ in 0..<writesEach {
                    try store.write { db in
                        // Read-modify-write in Swift: only serialized writes keep every increment.
                        let value: Int64 = try db.query("SELECT value FROM counter")[0][0]
                        try db.run("UPDATE counter SET value = ?", [.integer(value + 1)])
                        // Two rows per transaction: a reader seeing an odd count saw half of one.
                        try db.run("INSERT INTO events(writer) VALUES (?)", [.integer(Int64(writer))])
                        try db.run("INSERT INTO events(writer) VALUES (?)", [.integer(Int64(writer))])
                    }
                }
            }
        }
        let readerThreads = (0..<readers).map { _ in
            BackgroundThread { () -> [Int] in
                var observed: [Int] = []
                for _ in 0..<readsEach {
                    observed.append(try store.read { db in
                        let events = try db.count("events")
                        let counter: Int = try db.query("SELECT value FROM counter")[0][0]
                        // One snapshot: the two tables always agree.
                        guard events == counter * 2 else {
                            throw TestFailure("torn snapshot: \(events) events, counter \(counter)")
                        }
                        return events
                    })
                }
                return observed
            }
        }

        for thread in writerThreads {
            try thread.join(timeout: 60)
        }
        for thread in readerThreads {
            let observed = try thread.join(timeout: 60)
            #expect(observed.allSatisfy { $0.isMultiple(of: 2) })
            #expect(observed == observed.sorted(), "a reader went back in time")
        }
        let (events, counter): (Int, Int) = try store.read { db in
            (try db.count("events"), try db.query("SELECT value FROM counter")[0][0])
        }
        #expect(counter == writers * writesEach)
        #expect(events == writers * writesEach * 2)
    }

    @Test("writes that queue up share one commit; each returns only once its row is committed; a throwing one is undone alone")
    func groupCommit() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let commitsBefore = store.commitCount
        let syncsBefore = store.walSyncCount
        let first = try HeldWrite(store, inserting: "first")
        // Four writers queue behind the first; one of them throws after inserting.
        let queued = (0..<4).map { index in
            BackgroundThread { () -> Int in
                do {
                    try store.write { db in
                        try db.run("INSERT INTO items(name) VALUES (?)", [.text("queued \(index)")])
                        if index == 2 { throw TestFailure("refused") }
                    }
                } catch is TestFailure {
                    return -1
                }
                // Returned: a new reader must see the row (it was committed, not just written).
                return try store.read { try $0.query("SELECT count(*) FROM items WHERE name = ?", [.text("queued \(index)")])[0][0] }
            }
        }
        let allQueued = (0..<1_000).contains { _ in
            if store.queuedWriteCount == 4 { return true }
            usleep(5_000)
            return false
        }
        #expect(allQueued, "the writers did not queue: \(store.queuedWriteCount)")
        first.release()
        try first.join()
        let seen = try queued.map { try $0.join(timeout: 60) }
        #expect(seen.sorted() == [-1, 1, 1, 1])
        let names: [String] = try store.read { db in try db.query("SELECT name FROM items ORDER BY name").map { try $0["name"] } }
        #expect(names == ["first", "queued 0", "queued 1", "queued 3"])
        #expect(store.commitCount - commitsBefore == 1, "five writes that queued up made \(store.commitCount - commitsBefore) commits")
        #expect(store.walSyncCount - syncsBefore == 1, "one commit, \(store.walSyncCount - syncsBefore) syncs")
    }

    @Test("a write handed over without waiting is told after the sync that covers it, with its value or its error")
    func handedOverWrite() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let commitsBefore = store.commitCount
        let syncsBefore = store.walSyncCount
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var results: [String: (Result<Int64, any Error>, syncs: UInt64)] = [:]
            let done = DispatchSemaphore(value: 0)
        }
        let outcomes = Outcomes()
        let first = try HeldWrite(store, inserting: "first")
        // Handed over while the writer is busy: the calls return at once, on this thread.
        for name in ["kept", "refused"] {
            store.write({ db -> Int64 in
                try db.run("INSERT INTO items(name) VALUES (?)", [.text(name)])
                if name == "refused" { throw TestFailure("refused") }
                return db.lastInsertRowID
            }, then: { result in
                outcomes.lock.lock()
                outcomes.results[name] = (result, store.walSyncCount)
                outcomes.lock.unlock()
                outcomes.done.signal()
            })
        }
        #expect(store.queuedWriteCount == 2)
        #expect(outcomes.lock.withLock { outcomes.results.isEmpty }, "told before the writer ran the write")
        first.release()
        try first.join()
        for _ in 0..<2 { #expect(outcomes.done.wait(timeout: .now() + .seconds(60)) == .success) }
        let kept = try #require(outcomes.lock.withLock { outcomes.results["kept"] })
        let keptID = try kept.0.get()
        #expect(kept.syncs > syncsBefore, "told before the WAL holding it was synced")
        let name: String = try store.read { try $0.query("SELECT name FROM items WHERE id = ?", [.integer(keptID)])[0]["name"] }
        #expect(name == "kept")
        let refused = try #require(outcomes.lock.withLock { outcomes.results["refused"] })
        #expect(throws: TestFailure("refused")) { try refused.0.get() }
        let names: [String] = try store.read { db in try db.query("SELECT name FROM items ORDER BY name").map { try $0["name"] } }
        #expect(names == ["first", "kept"])
        #expect(store.commitCount - commitsBefore == 1, "the held write and the two handed over share one commit")
    }

    @Test("a write answered once committed is there for readers when it returns, and synced soon after with no other write")
    func committedWrite() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let syncsBefore = store.walSyncCount
        let id = try store.write(.committed) { db -> Int64 in
            try db.run("INSERT INTO items(name) VALUES (?)", [.text("delivered")])
            return db.lastInsertRowID
        }
        let name: String = try store.read { try $0.query("SELECT name FROM items WHERE id = ?", [.integer(id)])[0]["name"] }
        #expect(name == "delivered")
        let synced = (0..<2_000).contains { _ in
            if store.walSyncCount > syncsBefore { return true }
            usleep(5_000)
            return false
        }
        #expect(synced, "the syncer covers a commit nobody waits for")
        #expect(throws: TestFailure("refused")) {
            try store.write(.committed) { db in
                try db.run("INSERT INTO items(name) VALUES (?)", [.text("refused")])
                throw TestFailure("refused")
            }
        }
        let names: [String] = try store.read { db in try db.query("SELECT name FROM items ORDER BY name").map { try $0["name"] } }
        #expect(names == ["delivered"], "a body that throws keeps nothing")
    }

    @Test("when SQLite ends a shared transaction, its writes fail; the writes queued behind run in the next one")
    func lostTransaction() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let first = try HeldWrite(store, inserting: "first")
        // Queued in this order behind the first: an insert, a body that ends the whole transaction
        // (as an I/O error would), another insert.
        func queue(_ body: @escaping @Sendable (Connection) throws -> Void) -> BackgroundThread<Bool> {
            let before = store.queuedWriteCount
            let thread = BackgroundThread { () -> Bool in
                do { try store.write(body) } catch { return false }
                return true
            }
            _ = (0..<1_000).contains { _ in
                if store.queuedWriteCount > before { return true }
                usleep(2_000)
                return false
            }
            return thread
        }
        let sharing = queue { try $0.run("INSERT INTO items(name) VALUES ('sharing')") }
        let ending = queue { try $0.execute("ROLLBACK") }
        let behind = queue { try $0.run("INSERT INTO items(name) VALUES ('behind')") }
        #expect(store.queuedWriteCount == 3)
        first.release()
        #expect(throws: DatabaseError.self) { try first.join() }
        #expect(try sharing.join(timeout: 60) == false, "a write of the lost transaction returned as if kept")
        #expect(try ending.join(timeout: 60) == false)
        #expect(try behind.join(timeout: 60) == true, "the write queued behind was not run in a new transaction")
        let names: [String] = try store.read { db in try db.query("SELECT name FROM items ORDER BY name").map { try $0["name"] } }
        #expect(names == ["behind"])
    }

    @Test("a store can be shared across tasks")
    func sharedAcrossTasks() async throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try store.write { try $0.run("INSERT INTO items(name) VALUES (?)", [.text("item \(index)")]) }
                    _ = try store.read { try $0.count("items") }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.read { try $0.count("items") } == 20)
    }
}
