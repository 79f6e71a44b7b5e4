import Foundation
import Testing
import SandboxTestSupport
@testable import SandboxQRCode
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("QR code SVG rendering", .blocksThreads)
struct QRCodeSVGTests {
    /// The dark modules a path draws, found by replaying its `M x y h n v1 h-n z` runs.
    static func modules(drawnBy path: String, quietZone: Int) throws -> Set<[Int]> {
        var drawn = Set<[Int]>()
        let pattern = try NSRegularExpression(pattern: #"M(\d+) (\d+)h(\d+)v1h-(\d+)z"#)
        let range = NSRange(path.startIndex..., in: path)
        var covered = 0
        for match in pattern.matches(in: path, range: range) {
            let numbers = (1...4).map { Int(path[Range(match.range(at: $0), in: path)!])! }
            #expect(numbers[2] == numbers[3])
            for offset in 0..<numbers[2] {
                drawn.insert([numbers[0] - quietZone + offset, numbers[1] - quietZone])
            }
            covered += match.range.length
        }
        #expect(covered == (path as NSString).length, "path has only run commands")
        return drawn
    }

    static func darkModules(of code: QRCode) -> Set<[Int]> {
        var dark = Set<[Int]>()
        for y in 0..<code.size {
            for x in 0..<code.size where code.isDark(x: x, y: y) { dark.insert([x, y]) }
        }
        return dark
    }

    @Test("The SVG is one crisp path over a white background, sized by modules and pixels")
    func structure() throws {
        let code = try QRCode(text: "RT-8F2K", errorCorrection: .medium)
        let svg = code.svg(moduleSize: 6, quietZone: 4)
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="174" height="174" viewBox="0 0 29 29""#))
        #expect(svg.contains(#"shape-rendering="crispEdges""#))
        #expect(svg.components(separatedBy: "<path").count == 2)
        #expect(svg.contains(##"<rect width="29" height="29" fill="#ffffff"/>"##))
        #expect(svg.hasSuffix("</svg>"))
        #expect(!svg.contains("\n"))
        // The top-left finder's first row is a run of 7 starting after the quiet zone.
        #expect(svg.contains(#"d="M4 4h7v1h-7z"#))
    }

    @Test("The path draws exactly the dark modules", arguments: [0, 1, 4])
    func pathMatchesModules(quietZone: Int) throws {
        let code = try QRCode(text: "https://sandbox.local/register?token=RT-8F2K-9QX1", errorCorrection: .quartile)
        let svg = code.svg(moduleSize: 3, quietZone: quietZone)
        let path = try #require(svg.firstMatch(of: /d="([^"]*)"/)?.output.1)
        let drawn = try Self.modules(drawnBy: String(path), quietZone: quietZone)
        #expect(drawn == Self.darkModules(of: code))
        #expect(drawn.count == code.darkModuleCount)
        let side = code.size + 2 * quietZone
        #expect(svg.contains(#"viewBox="0 0 \#(side) \#(side)""#))
        #expect(svg.contains(#"width="\#(side * 3)""#))
    }

    @Test("Default rendering uses 8 px modules and a 4-module quiet zone")
    func defaults() throws {
        let code = try QRCode(text: "HELLO")
        #expect(code.svg().contains(#"width="232" height="232" viewBox="0 0 29 29""#))
    }

    #if canImport(FoundationXML) || os(macOS)
    @Test("The SVG is well-formed XML in the SVG namespace")
    func wellFormedXML() throws {
        let code = try QRCode(text: "Zahlung über 12,34 € <&> \"quoted\"")
        let document = try XMLDocument(xmlString: code.svg(), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "svg")
        #expect(root.uri == "http://www.w3.org/2000/svg")
        #expect(Self.attribute("shape-rendering", of: root) == "crispEdges")
        let paths = root.elements(forName: "path")
        #expect(paths.count == 1)
        #expect(try Self.attribute("d", of: #require(paths.first))?.hasPrefix("M4 4h7v1h-7z") == true)
        #expect(root.elements(forName: "rect").count == 1)
    }

    /// The value of an unprefixed attribute. swift-corelibs-foundation's
    /// `attribute(forName:)` answers `nil` on an element in a default namespace, so search.
    static func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }
    #endif

    @Test(
        "A scanner reads the text back (zbarimg)",
        .enabled(if: QRCodeSVGTests.zbarimg != nil, "zbarimg (Debian zbar-tools) is not installed; set ZBARIMG to its path")
    )
    func decodesWithZbar() throws {
        let text = "https://sandbox.local/register?token=RT-8F2K-9QX1&env=EU"
        let code = try QRCode(text: text, errorCorrection: .medium)
        // zbarimg reads a plain PGM without an image library; draw 4 px modules with a quiet zone.
        let scale = 4, quiet = 4
        let side = (code.size + 2 * quiet) * scale
        var image = Data("P5\n\(side) \(side)\n255\n".utf8)
        for py in 0..<side {
            for px in 0..<side {
                image.append(code.isDark(x: px / scale - quiet, y: py / scale - quiet) ? 0 : 255)
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qrcode-\(UUID().uuidString).pgm")
        try image.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let decoded = try SpawnedProcess.run(URL(fileURLWithPath: try #require(Self.zbarimg)), ["--quiet", "--raw", "-Sbinary", file.path])
        #expect(decoded.status == 0)
        #expect(String(decoding: decoded.standardOutput, as: UTF8.self) == text)
    }

    /// `$ZBARIMG` if set, else the usual install locations.
    static let zbarimg: String? = {
        let candidates = [ProcessInfo.processInfo.environment["ZBARIMG"]].compactMap { $0 }
            + ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg", "/opt/homebrew/bin/zbarimg"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
