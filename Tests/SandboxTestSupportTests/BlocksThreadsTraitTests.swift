import Foundation
import SandboxTestSupport
import Testing

/// `.blocksThreads` moves a suite's tests off the cooperative pool onto libdispatch's
/// overcommitting threads, which the pool's jobs never wait for.
///
/// Checked by where the code runs, not by timing a blocked pool: in a full run the pool is busy
/// with every other suite, and how long a job waits there says nothing about this trait. Linux
/// names a dispatch worker after its root queue (the last 15 characters): the cooperative pool's
/// `…root.default-qos`, the overcommitting pool's `…qos.overcommit`.
@Suite(
    "blocksThreads: tests that block their threads run off the cooperative pool", .blocksThreads,
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/comm"), "reads Linux's dispatch thread names (/proc)"))
struct BlocksThreadsTraitTests {
    static func threadName() -> String {
        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    @Test("a synchronous test, one that waits for a child process, runs on an overcommitting thread")
    func synchronousTest() {
        #expect(Self.threadName().hasSuffix("overcommit"), "\(Self.threadName())")
    }

    @Test("an asynchronous test and its child tasks too, after every suspension")
    func asynchronousTest() async {
        let before = Self.threadName()
        await Task.yield()
        async let first = Self.threadName()
        async let second = Self.threadName()
        let names = [before, Self.threadName(), await first, await second]
        #expect(names.allSatisfy { $0.hasSuffix("overcommit") }, "\(names)")
    }
}
