import Foundation

#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
import Darwin
private let streamSocket = SOCK_STREAM
#endif

/// A helper process that a test process starts once and sends many requests to, instead of
/// starting a process for each: Python that imported schemathesis once
/// (`Tests/ConformanceTests/schemathesis-server.py`), one Playwright with one Chromium
/// (`person.py --serve`). It listens on a Unix socket whose path is its last argument; each
/// connection carries one request, a JSON line, and the lines the server answers. It prints
/// `ready` once it listens, and ends when its standard input ends: that is a pipe whose other end
/// only this process holds (and never writes), so it ends with this process, however that ends.
///
/// ```swift
/// let server = try LineServer(python, [script.path], name: "schemathesis-server.py")
/// let answer = try server.exchange(["args": arguments], lines: 2, seconds: 400)
/// ```
public final class LineServer: Sendable {
    private let name: String
    private let folder = TemporaryDirectory()
    private let child: ChildProcess
    private let socketPath: String
    /// The write end of the server's standard input (see above).
    private let lifeline: Int32

    /// Starts `executable ARGUMENTS SOCKET` and waits for its `ready`.
    public init(
        _ executable: URL, _ arguments: [String], name: String, environment: [String: String] = childEnvironment()
    ) throws {
        self.name = name
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe: \(String(cString: strerror(errno)))") }
        socketPath = folder.file("requests.sock").path
        do {
            child = try ChildProcess(
                executable, arguments + [socketPath], environment: environment, stdin: "/dev/fd/\(ends[0])",
                workingDirectory: folder.url, combinedOutput: true)
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[0])
        lifeline = ends[1]
        guard child.waitForOutput("ready", seconds: 60) else {
            close(lifeline)
            throw HarnessError("\(name) did not start:\n\(child.stdout)")
        }
    }

    deinit { close(lifeline) }

    /// Sends `request` and reads answer lines until `lines` of them arrived or `seconds` passed:
    /// the lines that arrived, and whether they are all there.
    public func exchange(_ request: [String: Any], lines: Int, seconds: Double) throws -> (lines: [String], complete: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        let connection = try openConnection()
        defer { close(connection) }
        try send(try JSONSerialization.data(withJSONObject: request, options: [.withoutEscapingSlashes]) + Data("\n".utf8), on: connection)
        var answer = Data()
        func complete() -> [String] {
            let parts = answer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            return parts.dropLast().map { String(decoding: $0, as: UTF8.self) }
        }
        while complete().count < lines {
            let remaining = deadline.timeIntervalSinceNow
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if remaining <= 0 || poll(&ready, 1, Int32(remaining * 1000)) == 0 { return (complete(), false) }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(connection, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw HarnessError("\(name) closed the connection after \(complete().count) of \(lines) lines:\n\(String(decoding: answer, as: UTF8.self))\n\(child.stdout)")
            }
            answer.append(contentsOf: buffer[0..<count])
        }
        return (Array(complete().prefix(lines)), true)
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
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(connection)
            throw HarnessError("cannot reach \(name) at \(socketPath): \(reason)\n\(child.stdout)")
        }
        return connection
    }

    private func send(_ data: Data, on connection: Int32) throws {
        var sent = 0
        while sent < data.count {
            let count = data.withUnsafeBytes { write(connection, $0.baseAddress! + sent, data.count - sent) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw HarnessError("cannot send a request to \(name): \(String(cString: strerror(errno)))") }
            sent += count
        }
    }
}
