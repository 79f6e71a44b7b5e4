import Foundation

/// A value behind a lock, for the few pieces of mutable state the SDK shares between tasks.
///
/// `NSLock` rather than `Synchronization.Mutex` so the SDK builds on every Apple deployment
/// target as well as on Linux.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, alone.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    var current: Value { withLock { $0 } }
}
