import Foundation

/// Shows `prepare`'s 0–100 % progress: a bar redrawn in place on a terminal, or one plain line per
/// new percentage when standard output is a pipe or a file (or `--json` asked for silence).
///
/// ```swift
/// let bar = ProgressBar(style: .detect(json: false), label: "Preparing the reader")
/// bar.update(40)      // [████████████····················]  40 %
/// bar.finish()
/// ```
final class ProgressBar: @unchecked Sendable {
    enum Style: Sendable {
        /// A bar redrawn with carriage returns.
        case bar
        /// `label: N %` lines, for logs and pipes.
        case lines
        /// Nothing (the JSON object says it all).
        case silent

        /// A bar on a terminal, lines otherwise; silent for `--json`.
        static func detect(json: Bool) -> Style {
            if json { return .silent }
            return Output.streams.isTerminal ? .bar : .lines
        }
    }

    let style: Style
    let label: String
    let width: Int
    /// The run's output, taken when the bar is made: updates may come from the SDK's threads.
    private let streams = Output.streams
    private let lock = NSLock()
    private var last = -1

    init(style: Style, label: String, width: Int = 32) {
        self.style = style
        self.label = label
        self.width = width
    }

    /// Shows `percentage` (clamped to 0…100); repeated or lower values are ignored.
    func update(_ percentage: Int) {
        let value = min(max(percentage, 0), 100)
        lock.lock()
        defer { lock.unlock() }
        guard value > last else { return }
        last = value
        switch style {
        case .silent: return
        case .lines: write("\(label): \(value) %\n")
        case .bar: write("\r" + Self.render(value, width: width, label: label))
        }
    }

    /// Ends the bar's line (the bar itself stays visible).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if style == .bar, last >= 0 { write("\n") }
    }

    /// The text of one frame: `label [████····]  40 %`.
    static func render(_ percentage: Int, width: Int, label: String) -> String {
        let filled = percentage * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let number = String(percentage)
        return "\(label) [\(bar)] " + String(repeating: " ", count: 3 - number.count) + number + " %"
    }

    private func write(_ text: String) {
        streams.output(text)
    }
}
