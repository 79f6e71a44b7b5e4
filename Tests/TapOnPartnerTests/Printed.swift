import Foundation
import SandboxTestSupport

// The example reports through `print`; in this target `print` also keeps each line, so a test can
// read what it printed. Lines still reach standard output.

let printed = PrintedLines()

func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    printed.append(line)
    Swift.print(line, terminator: terminator)
}
