extension QRCode {
    /// The symbol as text for a terminal: Unicode half blocks, two module rows per line, one
    /// module per column, with a quiet zone, so a phone can scan it from the screen.
    ///
    /// Scanners want dark modules on a light ground, and most terminals draw light text on a dark
    /// background, so by default the *light* modules and the quiet zone are inked (`inverted`).
    /// Pass `inverted: false` for dark text on a light background.
    ///
    /// ```swift
    /// let code = try QRCode(text: "http://127.0.0.1:8110/pay/b07c")
    /// print(code.terminalText())   // ▀▀▀ … (size + 4 columns, (size + 4 + 1) / 2 lines)
    /// ```
    ///
    /// - Parameters:
    ///   - quietZone: Light modules around the symbol; 2 is enough on a screen. Default 2.
    ///   - inverted: Whether light modules are the inked ones (light-on-dark terminals). Default `true`.
    /// - Returns: The lines joined by `\n`, without a final newline; every line is as wide as the others.
    public func terminalText(quietZone: Int = 2, inverted: Bool = true) -> String {
        precondition(quietZone >= 0, "QRCode.terminalText(quietZone:) cannot be negative")
        let side = size + 2 * quietZone
        /// Whether the cell at (x, y) of the bordered grid is inked; rows past the bottom never are.
        func inked(_ x: Int, _ y: Int) -> Bool {
            guard y < side else { return false }
            return isDark(x: x - quietZone, y: y - quietZone) != inverted
        }
        var lines: [String] = []
        lines.reserveCapacity((side + 1) / 2)
        for top in stride(from: 0, to: side, by: 2) {
            var line = ""
            line.reserveCapacity(side * 3)
            for x in 0..<side {
                switch (inked(x, top), inked(x, top + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
