import Synchronization

/// A value the test and the app's closures share.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<T: Sendable>(_ body: (inout sending Value) throws -> sending T) rethrows -> T {
        try mutex.withLock(body)
    }
}
