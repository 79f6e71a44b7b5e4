import Foundation

// The example reports through `print`; in this target `print` also keeps each line, so a test can
// read what it printed. Lines still reach standard output.

final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var count: Int { lock.withLock { lines.count } }
    func lines(after index: Int) -> [String] { lock.withLock { Array(lines.dropFirst(index)) } }
}

let printed = PrintedLines()

func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    printed.append(line)
    Swift.print(line, terminator: terminator)
}
