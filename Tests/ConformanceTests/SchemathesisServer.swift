import Foundation
import SandboxTestSupport

#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
import Darwin
private let streamSocket = SOCK_STREAM
#endif

/// The test process's one `schemathesis-server.py`: Python with schemathesis imported once, which
/// forks a child for each run (importing it again cost each of the suites' thirty-odd runs about a
/// second of CPU). Started by the first run; it ends when this process does (its standard input is
/// a pipe whose other end only this process holds).
final class SchemathesisServer: Sendable {
    private let folder = TemporaryDirectory()
    private let child: ChildProcess
    private let socketPath: String
    /// The write end of the server's standard input, never written: its closing (this process
    /// ending) is what ends the server.
    private let lifeline: Int32

    /// Starts the server with `python`, which must import schemathesis.
    init(python: URL) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe: \(String(cString: strerror(errno)))") }
        socketPath = folder.file("runs.sock").path
        let script = Paths.repository.appendingPathComponent("Tests/ConformanceTests/schemathesis-server.py")
        do {
            child = try ChildProcess(
                python, [script.path, socketPath], stdin: "/dev/fd/\(ends[0])", workingDirectory: folder.url, combinedOutput: true)
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[0])
        lifeline = ends[1]
        guard child.waitForOutput("ready", seconds: 60) else {
            close(lifeline)
            throw HarnessError("schemathesis-server.py did not start:\n\(child.stdout)")
        }
    }

    deinit { close(lifeline) }

    /// Runs `schemathesis ARGUMENTS` in `directory`, its output and errors written to `output`;
    /// its exit status, or nil when it was still running after `seconds` (it is killed then).
    func run(_ arguments: [String], in directory: URL, output: URL, seconds: Double) throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        let connection = try openConnection()
        defer { close(connection) }
        let request = try JSONSerialization.data(
            withJSONObject: ["args": arguments, "cwd": directory.path, "output": output.path], options: [.withoutEscapingSlashes])
        try send(request + Data("\n".utf8), on: connection)
        var answer = Data()
        func line(_ index: Int) -> Int32? {
            let lines = String(decoding: answer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count > index + 1 ? Int32(lines[index]) : nil
        }
        while line(1) == nil {
            let remaining = deadline.timeIntervalSinceNow
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if remaining <= 0 || poll(&ready, 1, Int32(remaining * 1000)) == 0 {
                if let pid = line(0) { kill(pid_t(pid), SIGKILL) }
                return nil
            }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(connection, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw HarnessError("schemathesis-server.py's child ended without an exit status (answered: \(String(decoding: answer, as: UTF8.self)))")
            }
            answer.append(contentsOf: buffer[0..<count])
        }
        return line(1)
    }

    private func openConnection() throws -> Int32 {
        let connection = socket(AF_UNIX, streamSocket, 0)
        guard connection >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8CString)
        guard path.count <= MemoryLayout.size(ofValue: address.sun_path) else {
            close(connection)
            throw HarnessError("the socket path \(socketPath) is too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            path.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(connection, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(connection)
            throw HarnessError("cannot reach schemathesis-server.py at \(socketPath): \(reason)\n\(child.stdout)")
        }
        return connection
    }

    private func send(_ data: Data, on connection: Int32) throws {
        var sent = 0
        while sent < data.count {
            let count = data.withUnsafeBytes { write(connection, $0.baseAddress! + sent, data.count - sent) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw HarnessError("cannot send a run to schemathesis-server.py: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }
}
