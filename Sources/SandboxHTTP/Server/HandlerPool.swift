import Foundation

/// Threads that run submitted jobs in the order they came, at most `limit` of them.
///
/// The server hands each complete request to one of them, so a responder that blocks (a write
/// waiting for its group commit) holds a pool thread, never one of libmicrohttpd's pollers.
/// Threads start when a job finds none idle, so a quiet server (most of the sandbox's, and every
/// test's) keeps one or two instead of the whole limit.
final class HandlerPool: Sendable {
    typealias Job = @Sendable () -> Void

    /// Everything the threads share, only touched with `condition` locked.
    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        var jobs: [Job] = []
        var running = 0
        var threads = 0
        var idle = 0
        var stopping = false
        var closed = false
    }

    private let state = State()
    private let limit: Int
    private let name: String

    init(threads limit: Int, name: String) {
        self.limit = max(1, limit)
        self.name = name
    }

    /// Queues `job` for the next free thread; false (and `job` not taken) once the pool is closed.
    func submit(_ job: @escaping Job) -> Bool {
        state.condition.lock()
        defer { state.condition.unlock() }
        guard !state.closed else { return false }
        state.jobs.append(job)
        if state.idle >= state.jobs.count || state.threads == limit {
            state.condition.signal()
        } else {
            state.threads += 1
            let state = self.state
            let thread = Thread { Self.work(state) }
            thread.name = "\(name)-handler-\(state.threads)"
            thread.start()
        }
        return true
    }

    /// Threads started so far (they stay until ``shutdown()``).
    var threadCount: Int {
        state.condition.lock()
        defer { state.condition.unlock() }
        return state.threads
    }

    /// Takes no more jobs; the ones queued still run.
    func close() {
        state.condition.lock()
        state.closed = true
        state.condition.unlock()
    }

    /// Waits until no job is queued or running.
    func waitUntilIdle() {
        state.condition.lock()
        defer { state.condition.unlock() }
        while !state.jobs.isEmpty || state.running > 0 { state.condition.wait() }
    }

    /// Runs the jobs still queued, then ends every thread and returns once they have ended.
    func shutdown() {
        state.condition.lock()
        state.closed = true
        state.stopping = true
        state.condition.broadcast()
        while state.threads > 0 { state.condition.wait() }
        state.condition.unlock()
    }

    private static func work(_ state: State) {
        state.condition.lock()
        while true {
            while state.jobs.isEmpty && !state.stopping {
                state.idle += 1
                state.condition.wait()
                state.idle -= 1
            }
            if state.jobs.isEmpty {  // stopping, nothing left
                state.threads -= 1
                state.condition.broadcast()
                state.condition.unlock()
                return
            }
            let job = state.jobs.removeFirst()
            state.running += 1
            state.condition.unlock()
            job()
            state.condition.lock()
            state.running -= 1
            if state.running == 0 && state.jobs.isEmpty { state.condition.broadcast() }
        }
    }
}
