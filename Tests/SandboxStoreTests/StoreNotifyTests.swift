import Foundation
import SandboxStore
import SandboxTestSupport
import Synchronization
import Testing

/// `db.notify(channel)` and `store.listen(channel)`: a worker learns of its work once it is
/// committed, and not of a write that failed.
@Suite("Store notifications after commit")
struct StoreNotifyTests {
    /// What a listener saw: how many calls, and how many items were visible to a reader at each.
    final class Seen: Sendable {
        let calls = Mutex<[Int]>([])
    }

    @Test("a listener is told once the notifying write committed, and then sees it; other channels and failed writes tell nothing")
    func toldAfterCommit() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let seen = Seen()
        store.listen("items") { [weak store] in
            let visible = (try? store?.read { try $0.count("items") }) ?? -1
            seen.calls.withLock { $0.append(visible) }
        }
        try store.write { db in
            try db.run("INSERT INTO items(name) VALUES (?)", ["first"])
            db.notify("items")
        }
        // The listener runs on the writer thread before the write's caller hears of the sync.
        #expect(seen.calls.withLock { $0 } == [1])

        try store.write { db in
            try db.run("INSERT INTO items(name) VALUES (?)", ["quiet"])
            db.notify("other")
        }
        #expect(throws: TestFailure("declined")) {
            try store.write { db in
                try db.run("INSERT INTO items(name) VALUES (?)", ["failed"])
                db.notify("items")
                throw TestFailure("declined")
            }
        }
        try store.write { try $0.run("INSERT INTO items(name) VALUES (?)", ["after"]) }
        #expect(seen.calls.withLock { $0 } == [1])
    }
}
