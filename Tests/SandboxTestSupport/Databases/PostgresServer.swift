import Foundation
import SandboxStore
import Synchronization

/// A throw-away PostgreSQL server for the tests: `initdb` in a temporary directory, `postgres`
/// listening on a Unix socket there only (no TCP port), as the `postgres` user when the tests run
/// as root (PostgreSQL refuses root). One per test process, started on first use and stopped
/// when the process exits; each test takes a database of its own from it.
///
/// ```swift
/// let url = try PostgresServer.shared().newDatabase()   // "host=/tmp/pg.x1y2 dbname=t1 user=postgres"
/// let store = try Store.open(postgres: url, migrations: migrations)
/// ```
public final class PostgresServer: Sendable {
    /// The directory of the data and of the socket.
    public let directory: String
    private let process: SpawnedProcess
    private let counter = Atomic<Int>(0)

    private static let started = Mutex<Result<PostgresServer, HarnessError>?>(nil)
    nonisolated(unsafe) private static var exitPID: pid_t = 0
    nonisolated(unsafe) private static var exitDirectory: [CChar] = []

    /// The server of this test process, started the first time it is asked for.
    public static func shared() throws -> PostgresServer {
        try started.withLock { started in
            if started == nil {
                started = Result { () throws(HarnessError) in try PostgresServer() }
            }
            return try started!.get()
        }
    }

    /// The folder of PostgreSQL's programs (Debian's, Homebrew's, or on `PATH`), nil when none is installed.
    public static var binaries: String? {
        let candidates =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
            + ["/opt/homebrew/opt/postgresql@15/bin", "/usr/local/opt/postgresql@15/bin"]
            + (onPath("initdb").map { [$0.deletingLastPathComponent().path] } ?? [])
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    private init() throws(HarnessError) {
        guard let bin = Self.binaries else {
            throw HarnessError("PostgreSQL's server is not installed (scripts/setup installs Debian's postgresql)")
        }
        var template = Array((NSTemporaryDirectory() + "pg.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw HarnessError("cannot create a temporary directory for PostgreSQL")
        }
        directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // As root, everything runs as `postgres` (setpriv execs, so the pid is the server's).
        var prefix: [String] = []
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else { throw HarnessError("running as root, and there is no postgres user to run PostgreSQL as") }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
            prefix = ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"]
        }
        let data = directory + "/data"
        let launcher = prefix.first ?? bin + "/initdb"
        do {
            let initdb = try SpawnedProcess.run(
                URL(fileURLWithPath: launcher),
                Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [bin + "/initdb"])
                    + ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                in: URL(fileURLWithPath: directory), timeout: 120)
            guard initdb.exited, initdb.status == 0 else { throw HarnessError("initdb failed: \(initdb)") }
            process = try SpawnedProcess(
                executable: prefix.first ?? bin + "/postgres",
                arguments: Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [bin + "/postgres"]) + [
                    "-D", data, "-k", directory, "-c", "listen_addresses=", "-c", "max_connections=2500",
                    // A test server: what a crash of the machine would lose does not matter here.
                    "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "shared_buffers=64MB",
                ],
                environment: childEnvironment(), directory: directory, stdout: directory + "/server.log", stderr: directory + "/server.log")
        } catch let error as HarnessError {
            throw error
        } catch {
            throw HarnessError("cannot start PostgreSQL: \(error)")
        }
        Self.exitPID = process.pid
        Self.exitDirectory = Array(directory.utf8CString)
        atexit {
            // The server goes with the tests (SIGQUIT: no shutdown checkpoint), and its files after it.
            kill(PostgresServer.exitPID, SIGQUIT)
            var status: Int32 = 0
            waitpid(PostgresServer.exitPID, &status, 0)
            try? FileManager.default.removeItem(atPath: PostgresServer.exitDirectory.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        let deadline = Date().addingTimeInterval(30)
        while true {
            if (try? Connection(postgres: "host=\(directory) user=postgres dbname=postgres")) != nil { break }
            usleep(20_000)
            guard Date() < deadline, process.isRunning else {
                let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
                throw HarnessError("PostgreSQL did not start within 30 s:\n\(log)")
            }
        }
    }

    /// A new, empty database of this server as a `postgresql://` URL, the form `--database` takes
    /// (the socket's folder in its `host` parameter).
    public func newDatabaseURL() throws -> String {
        let conninfo = try newDatabase()
        let name = conninfo.split(separator: " ").first { $0.hasPrefix("dbname=") }!.dropFirst("dbname=".count)
        let folder = directory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? directory
        return "postgresql:///\(name)?host=\(folder)&user=postgres"
    }

    /// A new, empty database of this server, as a libpq connection string.
    public func newDatabase() throws -> String {
        let name = "t\(counter.add(1, ordering: .relaxed).newValue)_\(getpid())"
        let admin = try Connection(postgres: "host=\(directory) user=postgres dbname=postgres")
        try admin.execute("CREATE DATABASE \(name)")
        return "host=\(directory) user=postgres dbname=\(name)"
    }
}
