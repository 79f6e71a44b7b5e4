import Foundation

/// A value behind a lock, for the few pieces of mutable state closures and threads share; the one
/// lock box of the package (NIO's `NIOLockedValueBox` is the model).
///
/// `NSLock` rather than `Synchronization.Mutex`, so the device libraries that use it build on every
/// Apple deployment target they support as well as on Linux; a `Mutex` cannot be captured by a
/// closure either, which is what a box is for.
///
/// ```swift
/// let count = LockedValueBox(0)
/// count.withLockedValue { $0 += 1 }
/// let now = count.withLockedValue { $0 }
/// ```
///
/// Sendable whatever `Value` is: the value is only reached under the lock, and must not be
/// handed out of `withLockedValue` to be changed elsewhere.
///
/// Keep a function in a struct of yours, not bare (`LockedValueBox<((String) -> Void)?>`): a
/// bare function goes out and back through `inout` at every `withLockedValue`, and comes back
/// wrapped in one more reabstraction thunk each time, so that reading it n times makes a call
/// through it 2n frames deep (the wallet's deliverer did so: `OrderBook.Deliverer`).
public final class LockedValueBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, alone; what it returns is returned.
    public func withLockedValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
