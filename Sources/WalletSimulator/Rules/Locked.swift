import Synchronization

/// A value behind a lock that closures can share (a `Mutex` itself cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func set(_ change: (inout Value) -> Void) { mutex.withLock { change(&$0) } }
}
