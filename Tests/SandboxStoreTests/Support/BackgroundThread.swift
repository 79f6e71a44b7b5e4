import Foundation
import Synchronization

/// Runs a closure on its own OS thread, so tests can block it (inside a write transaction,
/// say) without starving Swift concurrency's small cooperative pool.
final class BackgroundThread<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<Value, any Error>?>(nil)

    init(_ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the closure and returns its value or rethrows its error.
    func join(timeout seconds: Int = 30) throws -> Value {
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else {
            throw TestFailure("background thread did not finish within \(seconds) s")
        }
        return try outcome.withLock { $0! }.get()
    }
}

/// An error a test throws on purpose.
struct TestFailure: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A flag one thread sets and another polls.
final class Flag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
