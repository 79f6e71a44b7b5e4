import Foundation

/// Every line a test module's `print` printed, in order: the seeds' examples report through
/// `print`, and a module that shadows it (`func print(_:separator:terminator:)` appending here,
/// then calling `Swift.print`) lets its tests read and wait for what an example printed.
public final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    public func append(_ line: String) { lock.withLock { lines.append(line) } }

    /// How many lines there are now: pass it to ``line(after:containing:seconds:)`` to look only at later ones.
    public var count: Int { lock.withLock { lines.count } }

    /// The lines printed after the first `index`.
    public func lines(after index: Int) -> [String] { lock.withLock { Array(lines.dropFirst(index)) } }

    /// The first line printed after the first `index` that contains `text`, once there is one (nil after `seconds`:
    /// generous, since on a loaded machine of two cores other suites' blocking children can hold the task pool).
    public func line(after index: Int, containing text: String, seconds: Double = 90) async -> String? {
        await eventuallyValue(seconds) { lock.withLock { lines.dropFirst(index).first { $0.contains(text) } } }
    }
}
