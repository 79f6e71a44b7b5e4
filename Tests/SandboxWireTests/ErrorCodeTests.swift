import FastJSON
import Foundation
import SandboxWire
import Testing

/// The stable error codes: one enum both sides switch over, equal to the docs' error tables, and
/// readable when a newer host answers a code this build does not know.
@Suite struct ErrorCodeTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every backticked code in the first column of a docs/*.md table whose first heading is `code`
    /// (a table may be indented in a list item), with the file that names it.
    static func documentedCodes() throws -> [String: String] {
        let docs = root.appendingPathComponent("docs")
        var codes: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted() where name.hasSuffix(".md") {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            var inCodeTable = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard line.hasPrefix("|"), cells.count > 2 else {
                    inCodeTable = false
                    continue
                }
                if cells[1] == "code" {
                    inCodeTable = true
                } else if inCodeTable, !cells[1].hasPrefix("---") {
                    for match in cells[1].matches(of: /`([a-z][a-z0-9]*(?:_[a-z0-9]+)*)`/) {
                        codes[String(match.1)] = name
                    }
                }
            }
        }
        return codes
    }

    @Test("a code a newer host answers decodes, keeps its text and encodes back as it came")
    func unknownCodesDecode() throws {
        let body = Data(#"{"error":{"code":"terminal_on_fire","field":"terminalId","message":"Too hot."}}"#.utf8)
        let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: body)
        #expect(envelope.error.code == .unrecognized("terminal_on_fire"))
        #expect(envelope.error.code.rawValue == "terminal_on_fire")
        #expect(envelope.error.message == "Too hot." && envelope.error.field == "terminalId")
        #expect(String(decoding: try SortedJSONEncoder.encode(envelope), as: UTF8.self) == String(decoding: body, as: UTF8.self))

        switch ErrorCode(rawValue: "terminal_on_fire") {
        case .unrecognized(let text): #expect(text == "terminal_on_fire")
        default: Issue.record("an unknown code became a known one")
        }
    }

    @Test("a known code decodes as its case, and an envelope without message or field still reads")
    func knownCodesDecode() throws {
        let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(#"{"error":{"code":"terminal_busy"}}"#.utf8))
        #expect(envelope == ErrorEnvelope(code: .terminalBusy, message: nil))
        switch envelope.error.code {
        case .terminalBusy: break
        default: Issue.record("terminal_busy decoded as \(envelope.error.code)")
        }
        #expect(String(decoding: try SortedJSONEncoder.encode(ErrorEnvelope(code: .invalidJson, message: "No.", field: "amount")), as: UTF8.self)
            == #"{"error":{"code":"invalid_json","field":"amount","message":"No."}}"#)
    }

    @Test("every case round-trips through its wire value, and no two cases share one")
    func everyCaseRoundTrips() {
        for code in ErrorCode.known {
            let decoded = ErrorCode(rawValue: code.rawValue)
            #expect(decoded == code, "\(code.rawValue)")
            if case .unrecognized = decoded { Issue.record("\(code.rawValue) is not recognized") }
        }
        #expect(Set(ErrorCode.known.map(\.rawValue)).count == ErrorCode.known.count)
    }

    @Test("a case is the lowerCamel spelling of its snake_case wire value")
    func casesSpellTheirWireValues() {
        for code in ErrorCode.known {
            let parts = code.rawValue.split(separator: "_")
            let camel = parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
                .joined()
            #expect(code.rawValue.wholeMatch(of: /[a-z][a-z0-9]*(_[a-z0-9]+)*/) != nil, "\(code.rawValue)")
            #expect("\(code)" == camel, "\(code) for \(code.rawValue)")
        }
    }

    /// `known` is written by hand beside the cases: a case left out of it would decode as unrecognized.
    @Test("every case declared in ErrorCode.swift is in ErrorCode.known")
    func knownListsEveryCase() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/SandboxWire/ErrorCode.swift"), encoding: .utf8)
        let declared = source.matches(of: /\n    case ([a-zA-Z0-9]+)\n/).map { String($0.1) }
        #expect(declared.count > 50)
        let listed = ErrorCode.known.map { "\($0)" }
        #expect(declared == listed)
    }

    @Test("the docs' error tables list every code of the enum, and the enum every code of the tables")
    func docsTablesAreTheEnum() throws {
        let documented = try Self.documentedCodes()
        let known = Set(ErrorCode.known.map(\.rawValue))
        #expect(documented.count > 50)
        for code in known.subtracting(documented.keys).sorted() {
            Issue.record("\(code) is an ErrorCode case but in no error table of docs/*.md")
        }
        for (code, file) in documented.sorted(by: { $0.key < $1.key }) where !known.contains(code) {
            Issue.record("\(code) (docs/\(file)) is not an ErrorCode case")
        }
    }

    @Test("every code an OpenAPI answer enumerates is an ErrorCode case")
    func openAPICodesAreCases() throws {
        let folder = Self.root.appendingPathComponent("openapi")
        let known = Set(ErrorCode.known.map(\.rawValue))
        var seen = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".yaml") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for list in text.matches(of: /code: \{enum: \[([^\]]*)\]/) {
                for code in list.1.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    seen += 1
                    #expect(known.contains(code), "openapi/\(name) answers \(code), which is not an ErrorCode case")
                }
            }
        }
        #expect(seen > 50)
    }
}
