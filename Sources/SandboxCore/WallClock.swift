import SandboxTime
import Foundation

/// Real time, which `POST /_sandbox/clock` never moves.
///
/// What happens between two machines happens in real time, whatever a host's sandbox clock says:
/// a webhook's signature timestamp is checked by its receiver against the receiver's own clock,
/// so the host signs with this one. Injected like the sandbox clock, so tests choose its instant
/// (a ``ManualClock``) instead of reading the system's.
///
/// ```swift
/// let signedAt = WallClock().now()   // the system's time, never skewed
/// ```
public struct WallClock: TimeSource {
    public init() {}

    public func now() -> Date { Date() }
}
