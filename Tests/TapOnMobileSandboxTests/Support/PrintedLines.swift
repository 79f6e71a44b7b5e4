import Foundation

// The seed's examples report through `print`; in this target `print` also keeps each line, so a
// test can wait for what an example printed. Lines still reach standard output.

/// Every line printed in this test process, in order.
final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    /// How many lines there are now: pass it to ``line(after:containing:seconds:)`` to look only at later ones.
    var count: Int { lock.withLock { lines.count } }

    /// The lines printed after the first `index`.
    func lines(after index: Int) -> [String] { lock.withLock { Array(lines.dropFirst(index)) } }

    /// The first line printed after the first `index` that contains `text`, once there is one (nil after `seconds`:
    /// generous, since on a loaded machine of two cores other suites' blocking children can hold the task pool).
    func line(after index: Int, containing text: String, seconds: Double = 90) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let found = lock.withLock({ lines.dropFirst(index).first { $0.contains(text) } }) { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

let printed = PrintedLines()

/// Swift's `print`, keeping the line in ``printed`` too (this module's `print` wins over the
/// standard library's).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    printed.append(line)
    Swift.print(line, terminator: terminator)
}
