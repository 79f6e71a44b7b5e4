import Testing
@testable import SandboxQRCode

@Suite("QR code terminal rendering")
struct QRCodeTerminalTests {
    /// The inked cells the half blocks draw, read back two rows per line.
    static func inkedCells(of text: String) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var top: [Bool] = []
            var bottom: [Bool] = []
            for character in line {
                switch character {
                case "█": top.append(true); bottom.append(true)
                case "▀": top.append(true); bottom.append(false)
                case "▄": top.append(false); bottom.append(true)
                case " ": top.append(false); bottom.append(false)
                default: Issue.record("unexpected character \(character)")
                }
            }
            rows.append(top)
            rows.append(bottom)
        }
        return rows
    }

    @Test("Every module comes back from the half blocks, light ones inked, with the quiet zone around")
    func modulesRoundTrip() throws {
        let code = try QRCode(text: "http://127.0.0.1:8110/pay/b07c5e1a-2f44-4f0e-9d6b-3a1c8e2f0d11")
        let quiet = 2
        let side = code.size + 2 * quiet
        let text = code.terminalText(quietZone: quiet)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        let cells = Self.inkedCells(of: text)
        for y in 0..<side {
            for x in 0..<side {
                let dark = code.isDark(x: x - quiet, y: y - quiet)
                #expect(cells[y][x] == !dark, "cell \(x),\(y)")
            }
        }
        // The row past an odd bottom edge is never inked.
        if side % 2 == 1 { #expect(cells[side].allSatisfy { !$0 }) }
    }

    @Test("Not inverted, the dark modules are the inked ones and the quiet zone is blank")
    func darkOnLight() throws {
        let code = try QRCode(text: "RT-8F2K")
        let text = code.terminalText(quietZone: 1, inverted: false)
        let cells = Self.inkedCells(of: text)
        #expect(cells[0].allSatisfy { !$0 })
        // The top-left finder pattern: a dark 7-module edge one module in.
        #expect((1...7).allSatisfy { cells[1][$0] })
        #expect(cells[1][0] == false)
        #expect(cells.joined().filter { $0 }.count == code.darkModuleCount)
    }
}
