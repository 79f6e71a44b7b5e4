import Foundation

/// Polls `condition` every 20 ms until it holds or `seconds` pass; whether it held.
///
/// For what happens on another thread or process (a delivery, a child's output), never for what
/// the sandbox clock decides: expiry is tested by moving that clock, and that nothing happened by
/// a driven pass of the worker. The one polling loop of the tests (``eventuallyValue(_:_:)``),
/// and ``eventuallyBlocking(_:_:)`` for a test that blocks its thread.
///
/// It runs on the caller's actor (`isolation`), so a condition that reads the caller's state
/// (a main-actor view model) needs not be `Sendable`.
public func eventually(
    _ seconds: Double = 60, isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    await eventuallyValue(seconds, isolation: isolation) { await condition() ? true : nil } ?? false
}

/// Polls `produce` every 20 ms until it gives a value or `seconds` pass; the value, or nil.
public func eventuallyValue<Value>(
    _ seconds: Double = 60, isolation: isolated (any Actor)? = #isolation, _ produce: () async -> Value?
) async -> Value? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let value = await produce() { return value }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await produce()
}

/// ``eventually(_:_:)`` on the calling thread, for a test that blocks it (`.blocksThreads`).
public func eventuallyBlocking(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
