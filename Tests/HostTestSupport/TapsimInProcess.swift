import Foundation
import SandboxTestSupport
import Synchronization
import TapsimCLI
import Testing

/// `tapsim ARGUMENTS` run in this process in `directory`, as the executable would run it there:
/// its standard output and error collected, its exit code answered. A run still going after
/// `timeout` seconds is cancelled and recorded as an issue.
///
/// The caller's thread waits for the run (the suites that call this block their threads:
/// `.blocksThreads`).
public func runInProcess(_ arguments: [String], in directory: URL, timeout: TimeInterval = 30) -> ProcessOutput {
    let output = Mutex<(out: String, error: String)>(("", ""))
    let streams = TapsimStreams(
        output: { text in output.withLock { $0.out += text } }, error: { text in output.withLock { $0.error += text } })
    let status = Mutex<Int32?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let run = Task {
        let code = await Tapsim.run(arguments, in: directory, streams: streams)
        status.withLock { $0 = code }
        finished.signal()
    }
    let timedOut = finished.wait(timeout: .now() + timeout) == .timedOut
    if timedOut {
        run.cancel()
        Issue.record("tapsim \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    let (out, error) = output.withLock { $0 }
    return ProcessOutput(status: status.withLock { $0 } ?? -1, timedOut: timedOut, standardOutput: Array(out.utf8), stderr: error)
}
