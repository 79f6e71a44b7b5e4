import SandboxTime
import Foundation

/// A clock that only moves forward, at the machine's pace (time since boot, as a `Date` counted
/// from 1970): connection deadlines measured on it are not cut short, or stretched, when the wall
/// clock is set, and a host's sandbox clock (moved by days in tests) never touches them.
public struct UptimeClock: TimeSource {
    public init() {}

    public func now() -> Date {
        Date(timeIntervalSince1970: Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000)
    }
}
