import Foundation
import SandboxTestSupport
import Testing

/// `scripts/slowest-tests`, which `make test` runs after each suite: a test's own running time,
/// not the time it waited for a slot.
@Suite("scripts/slowest-tests")
struct SlowestTestsScriptTests {
    /// One line of Swift Testing's event stream (version 0) with the fields the script reads.
    static func event(_ kind: String, _ test: String, at seconds: Double, testCase: String? = nil) -> String {
        var payload: [String: Any] = ["kind": kind, "instant": ["absolute": 1000 + seconds], "testID": test]
        if let testCase { payload["_testCase"] = ["id": testCase] }
        return json(["kind": "event", "payload": payload, "version": 0])
    }

    static func test(_ id: String, name: String, parameterized: Bool = false) -> String {
        json(["kind": "test", "payload": ["id": id, "kind": "function", "displayName": name, "isParameterized": parameterized], "version": 0])
    }

    static func json(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("two tests queued together on one slot: the second's time starts when the first ends; a case's starts when reported")
    func ownTimeFromTheQueue() throws {
        let stream = [
            Self.test("M.S/first()/F.swift:1:1", name: "first"), Self.test("M.S/second()/F.swift:2:1", name: "second"),
            Self.test("M.S/cases(_:)/F.swift:3:1", name: "cases", parameterized: true),
            Self.event("runStarted", "", at: 0),
            // Both queue at 0; one slot: second runs from 6 to 7.
            Self.event("testStarted", "M.S/first()/F.swift:1:1", at: 0), Self.event("testStarted", "M.S/second()/F.swift:2:1", at: 0),
            Self.event("testEnded", "M.S/first()/F.swift:1:1", at: 6), Self.event("testEnded", "M.S/second()/F.swift:2:1", at: 7),
            // A test with arguments: its outer start is ignored, its case ran 7.5 to 9.
            Self.event("testStarted", "M.S/cases(_:)/F.swift:3:1", at: 0),
            Self.event("testCaseStarted", "M.S/cases(_:)/F.swift:3:1", at: 7.5, testCase: "a"), Self.event("testCaseEnded", "M.S/cases(_:)/F.swift:3:1", at: 9, testCase: "a"),
            Self.event("testEnded", "M.S/cases(_:)/F.swift:3:1", at: 9),
            Self.event("runEnded", "", at: 9),
        ].joined(separator: "\n")
        let folder = try TemporaryDirectory()
        let file = folder.file("events.jsonl")
        try Data(stream.utf8).write(to: file)
        let python = try #require(onPath("python3"), "python3 is needed; run scripts/setup")
        let script = Paths.repository.appendingPathComponent("scripts/slowest-tests")
        let output = try SpawnedProcess.run(python, [script.path, file.path, "3", "1"], in: folder.url, timeout: 30)
        #expect(output.status == 0, "\(output)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "run: 3 tests in 9.0 s", "\(output)")
        #expect(lines.dropFirst(2).map { $0.trimmingCharacters(in: .whitespaces) } == ["6.0 s  M.S: first", "1.5 s  M.S: cases", "1.0 s  M.S: second"], "\(output)")
    }
}
