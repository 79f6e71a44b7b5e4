import Foundation
import Testing
@testable import SandboxQRCode
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("QR code encoding")
struct QRCodeTests {
    @Test("A short string is a version 1 symbol (21 × 21)", arguments: QRCode.ErrorCorrection.allCases)
    func shortStringIsVersion1(level: QRCode.ErrorCorrection) throws {
        let code = try QRCode(text: "HELLO", errorCorrection: level)
        #expect(code.version == 1)
        #expect(code.size == 21)
        #expect(code.errorCorrection == level)
        #expect(code.text == "HELLO")
    }

    @Test("Longer text and higher error correction need larger symbols")
    func versionGrows() throws {
        // Version 1 at level L holds 17 bytes; 18 lower-case letters (byte mode) need version 2.
        #expect(try QRCode(text: String(repeating: "a", count: 17), errorCorrection: .low).size == 21)
        #expect(try QRCode(text: String(repeating: "a", count: 18), errorCorrection: .low).size == 25)
        // Version 1 at level H holds 7 bytes.
        #expect(try QRCode(text: String(repeating: "a", count: 8), errorCorrection: .high).size == 25)
        let url = try QRCode(text: "https://localhost:8443/register?token=RT-8F2K", errorCorrection: .medium)
        #expect(url.size == 17 + 4 * url.version)
        #expect(url.version == 4)
    }

    @Test("Digits are packed in numeric mode")
    func numericMode() throws {
        // 41 digits fit version 1-L only in numeric mode (byte mode holds 17).
        #expect(try QRCode(text: String(repeating: "7", count: 41), errorCorrection: .low).version == 1)
    }

    @Test("Finder patterns sit in three corners and the fourth corner has none")
    func finderPatterns() throws {
        let code = try QRCode(text: "https://sandbox.local/t/abc123")
        let last = code.size - 1
        for (x, y) in [(0, 0), (last, 0), (0, last)] {
            #expect(code.isDark(x: x, y: y), "corner (\(x), \(y))")
        }
        // Each finder: a dark 7 × 7 ring, a light ring inside, a dark 3 × 3 centre.
        for (originX, originY) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for offset in 0..<7 {
                #expect(code.isDark(x: originX + offset, y: originY))
                #expect(code.isDark(x: originX + offset, y: originY + 6))
                #expect(code.isDark(x: originX, y: originY + offset))
                #expect(code.isDark(x: originX + 6, y: originY + offset))
            }
            #expect(!code.isDark(x: originX + 1, y: originY + 1))
            #expect(!code.isDark(x: originX + 5, y: originY + 5))
            #expect(code.isDark(x: originX + 3, y: originY + 3))
        }
        // The separator beside the top-left finder is light.
        #expect(!code.isDark(x: 7, y: 0))
        #expect(!code.isDark(x: 0, y: 7))
        // The bottom-right corner has no finder: its 7 × 7 block is not a solid ring.
        let ring = (0..<7).allSatisfy { code.isDark(x: last - $0, y: last) && code.isDark(x: last, y: last - $0) }
        #expect(!ring)
    }

    @Test("Dark and light modules are both present, and outside the symbol is light")
    func moduleCounts() throws {
        let code = try QRCode(text: "RT-8F2K")
        let counted = (0..<code.size).flatMap { y in (0..<code.size).map { x in code.isDark(x: x, y: y) } }
            .filter { $0 }.count
        #expect(code.darkModuleCount == counted)
        #expect(code.darkModuleCount > 3 * 33)  // at least the three finder patterns
        #expect(code.darkModuleCount < code.size * code.size)
        #expect(!code.isDark(x: -1, y: 0))
        #expect(!code.isDark(x: 0, y: code.size))
        #expect(!code.isDark(x: code.size, y: code.size))
    }

    @Test("Different text gives different modules; the same text gives the same")
    func deterministic() throws {
        #expect(try QRCode(text: "abc") == QRCode(text: "abc"))
        #expect(try QRCode(text: "abc") != QRCode(text: "abd"))
        #expect(try QRCode(text: "abc", errorCorrection: .low) != QRCode(text: "abc", errorCorrection: .high))
    }

    @Test("Non-ASCII and NUL-containing text encode")
    func unusualText() throws {
        #expect(try QRCode(text: "Zahlung über 12,34 € — ok").size >= 25)
        let withNul = try QRCode(text: "a\u{0}b")
        #expect(withNul.size == 21)
        #expect(try withNul != QRCode(text: "a"))
    }

    @Test("Empty text is a typed error")
    func emptyText() {
        #expect(throws: QRCodeError.emptyText) { try QRCode(text: "") }
    }

    // Arguments are (unit, repetitions) rather than the text itself, so test logs stay short.
    @Test("Text beyond version 40 is a typed error", arguments: [
        ("x", 8000, QRCode.ErrorCorrection.low),
        ("x", 2954, .low),
        ("x", 1274, .high),
        ("x\u{0}", 4000, .low),
    ])
    func tooLong(unit: String, repetitions: Int, level: QRCode.ErrorCorrection) {
        let text = String(repeating: unit, count: repetitions)
        #expect(throws: QRCodeError.textTooLong) { try QRCode(text: text, errorCorrection: level) }
    }

    @Test("The largest byte-mode payloads still fit in version 40")
    func largestFits() throws {
        #expect(try QRCode(text: String(repeating: "x", count: 2953), errorCorrection: .low).version == 40)
        #expect(try QRCode(text: String(repeating: "x", count: 1273), errorCorrection: .high).size == 177)
    }

    @Test("Errors compare by kind and keep errno")
    func errorDetails() {
        do {
            _ = try QRCode(text: String(repeating: "x", count: 8000))
            Issue.record("expected an error")
        } catch let error as QRCodeError {
            #expect(error == .textTooLong)
            #expect(error.systemErrorCode == Int(ERANGE))
            #expect(error.description.contains("textTooLong"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(QRCodeError.emptyText != .textTooLong)
        #expect(QRCodeError.emptyText.systemErrorCode == nil)
    }

    @Test("Encoding works from many tasks at once")
    func concurrentEncoding() async throws {
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<16 {
                group.addTask { try QRCode(text: "token-\(index)-" + String(repeating: "z", count: index * 10)).size }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sizes.count == 16)
        #expect(sizes.allSatisfy { $0 >= 21 && ($0 - 17) % 4 == 0 })
    }
}
