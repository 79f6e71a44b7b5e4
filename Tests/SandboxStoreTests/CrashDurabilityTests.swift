import Foundation
import SandboxStore
import SandboxTestSupport
import Testing

/// Kills a real writer process with SIGKILL mid-stream and checks what survived.
///
/// `store-crash-writer` prints the highest id after each COMMIT returns; everything it printed
/// must be in the file after the kill, and no transaction may be half there.
@Suite("SIGKILL durability", .blocksThreads)
struct CrashDurabilityTests {
    private static let rowsPerTransaction = 5  // as in Tests/Tools/StoreCrashWriter/main.swift

    @Test("every commit the writer reported survives SIGKILL, and the file stays intact")
    func survivesSigkill() throws {
        let writer = try #require(
            Self.locateCrashWriter(),
            """
            store-crash-writer is not built next to the test bundle; build it first with \
            `swift build --build-tests` and run `swift test --skip-build`
            """
        )
        let directory = TemporaryDirectory()
        let path = directory.file("crash.sqlite").path

        // Each round reopens the file the previous kill left behind (WAL recovery included)
        // and kills at a different point.
        var previous: Int64 = 0
        for newRows in [200, 537, 1_111] {
            let reported = try Self.runAndKill(writer, path: path, afterMoreThan: previous + Int64(newRows))
            #expect(reported >= previous + Int64(newRows))

            let store = try Store.open(path: path, migrations: [Schemas.crashRows])
            let (present, total, highest, integrity): (Int64, Int64, Int64, String) = try store.read { db in
                (
                    try db.query("SELECT count(*) FROM rows WHERE id <= ?", [.integer(reported)])[0][0],
                    try db.query("SELECT count(*) FROM rows")[0][0],
                    try db.query("SELECT coalesce(max(id), 0) FROM rows")[0][0],
                    try db.query("PRAGMA integrity_check")[0][0]
                )
            }
            #expect(present == reported, "ids 1...\(reported) were reported committed, \(present) are present")
            #expect(highest >= reported)
            // Ids are never reused or skipped here, so rows are 1...highest and only whole transactions exist.
            #expect(total == highest)
            #expect(total % Int64(Self.rowsPerTransaction) == 0, "a transaction was torn: \(total) rows")
            #expect(integrity == "ok")
            previous = highest
        }
    }

    /// Starts the writer on `path`, reads its reports until one exceeds `threshold`, sends
    /// SIGKILL, and returns the highest id it reported (including any still in the pipe).
    private static func runAndKill(_ executable: URL, path: String, afterMoreThan threshold: Int64) throws -> Int64 {
        let process = Process()
        process.executableURL = executable
        process.arguments = [path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()

        // A watchdog, so a writer that hangs fails the test instead of stalling the suite.
        let finished = Flag()
        let pid = process.processIdentifier
        let watchdog = BackgroundThread {
            for _ in 0..<300 where !finished.isSet {
                usleep(100_000)
            }
            if !finished.isSet { kill(pid, SIGKILL) }
        }

        var lines = LineReader()
        var highest: Int64 = 0
        while highest < threshold {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }  // EOF: the writer died on its own
            highest = max(highest, lines.feed(data).max() ?? 0)
        }
        kill(pid, SIGKILL)
        process.waitUntilExit()
        finished.set()
        // Reports written before the kill landed are commitments too.
        highest = max(highest, lines.feed(output.fileHandleForReading.readDataToEndOfFile()).max() ?? 0)
        try watchdog.join()

        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            throw TestFailure("writer exited by itself (status \(process.terminationStatus)) after id \(highest): \(stderr)")
        }
        guard highest >= threshold else {
            throw TestFailure("writer stopped reporting at id \(highest) before \(threshold): \(stderr)")
        }
        return highest
    }

    /// The `store-crash-writer` executable in the build directory that holds this test binary.
    private static func locateCrashWriter() -> URL? {
        let starts = [Bundle.main.executableURL, Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        for start in starts.compactMap({ $0?.resolvingSymlinksInPath() }) {
            var directory = start.deletingLastPathComponent()
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent("store-crash-writer")
                if FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }
}

/// Splits a byte stream into decimal lines, keeping a partial last line for the next chunk.
private struct LineReader {
    private var pending: [UInt8] = []

    mutating func feed(_ data: Data) -> [Int64] {
        pending += data
        guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let complete = pending[..<lastNewline]
        pending.removeSubrange(...lastNewline)
        return complete.split(separator: UInt8(ascii: "\n")).compactMap { Int64(String(decoding: $0, as: UTF8.self)) }
    }
}
