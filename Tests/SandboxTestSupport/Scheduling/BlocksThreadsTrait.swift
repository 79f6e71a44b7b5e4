import Dispatch
import Testing

/// Runs each test of a suite off Swift's cooperative thread pool, for suites whose tests block
/// their thread: they wait for a child process, a socket or a sleep.
///
/// The cooperative pool has one thread per core, two on the CI machine, and every test of the run
/// shares it. A synchronous test that waits a minute for `tapsim` holds one of those threads for
/// that minute; two such tests at once stop every asynchronous test of the process, and a test
/// that measures its wait in real time (an SDK's payment awaited for 300 s) fails without anything
/// being wrong. Under this trait each job of the test gets a thread of its own from libdispatch's
/// overcommitting pool, which grows when its threads block; the test's child tasks (`async let`,
/// task groups) inherit it and still run side by side.
///
/// ```swift
/// @Suite("tapsim against a running sandbox", .blocksThreads)
/// struct JourneyTests { … }
/// ```
public struct BlocksThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(OvercommitExecutor.shared) {
            try await function()
        }
    }
}

extension Trait where Self == BlocksThreadsTrait {
    /// The suite's tests block threads: run them off the cooperative pool (``BlocksThreadsTrait``).
    public static var blocksThreads: Self { Self() }
}

/// A task executor that runs every job on a fresh serial queue: such a queue targets libdispatch's
/// overcommitting root queue, which starts another thread when the ones it has are blocked.
final class OvercommitExecutor: TaskExecutor {
    static let shared = OvercommitExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue(label: "TestSupport.blocksThreads").async {
            job.runSynchronously(on: executor)
        }
    }
}
