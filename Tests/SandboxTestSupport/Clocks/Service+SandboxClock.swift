import Foundation
import Testing

/// The running sandbox's clock (`/_sandbox/clock`): expiry rules are tested by moving it, never by
/// sleeping.
extension Service {
    /// Moves the host's clock forward by `seconds`, expecting 200.
    @discardableResult
    public func advanceClock(_ seconds: Int, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPReply {
        expectReply(
            call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds]), 200, nil, "\(step): move the clock +\(seconds) s",
            sourceLocation: sourceLocation)
    }

    /// ``advanceClock(_:_:sourceLocation:)`` from an asynchronous test.
    @discardableResult
    public func advanceClock(_ seconds: Int, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) async -> HTTPReply {
        expectReply(
            await call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds]), 200, nil,
            "\(step): move the clock +\(seconds) s", sourceLocation: sourceLocation)
    }
}
