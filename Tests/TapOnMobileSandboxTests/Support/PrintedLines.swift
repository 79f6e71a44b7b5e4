import Foundation
import SandboxTestSupport

// The seed's examples report through `print`; in this target `print` also keeps each line, so a
// test can wait for what an example printed. Lines still reach standard output.

let printed = PrintedLines()

/// Swift's `print`, keeping the line in ``printed`` too (this module's `print` wins over the
/// standard library's).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    printed.append(line)
    Swift.print(line, terminator: terminator)
}
