import Foundation

/// Polls `condition` every 20 ms until it holds or `seconds` pass; whether it held.
///
/// For what happens on another thread (a delivery, a child's output), never for what the sandbox
/// clock decides: expiry is tested by moving that clock.
public func eventually(_ seconds: Double = 60, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
