/// Why a test's set-up (a child, a port, a fixture) failed, in words for the test log.
public struct HarnessError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
