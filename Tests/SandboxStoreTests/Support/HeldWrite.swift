import Foundation
import SandboxStore

/// A write that inserts an item named `name` and then keeps the writer busy until ``release()``
/// (at most 10 s, so a store that deadlocks fails a test instead of hanging it). Returns once the
/// insert has run, so the caller knows the write is in progress.
final class HeldWrite: Sendable {
    private let release_ = DispatchSemaphore(value: 0)
    private let thread: BackgroundThread<Void>

    init(_ store: Store, inserting name: String) throws {
        let inside = DispatchSemaphore(value: 0)
        let release = release_
        thread = BackgroundThread {
            try store.write { db in
                try db.run("INSERT INTO items(name) VALUES (?)", [.text(name)])
                inside.signal()
                _ = release.wait(timeout: .now() + .seconds(60))
            }
        }
        guard inside.wait(timeout: .now() + .seconds(60)) == .success else { throw TestFailure("the held write never ran") }
    }

    func release() { release_.signal() }

    /// Waits for the write to return; rethrows its error.
    func join(timeout seconds: Int = 10) throws { try thread.join(timeout: seconds) }
}
