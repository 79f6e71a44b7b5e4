import CSpawn
import Foundation

/// A child process started with `posix_spawn`, for the tests that run the real executables.
///
/// Not Foundation's `Process`: on Linux its `run()` reads 256 bytes of every `/proc/self/fd`
/// entry and crashes the whole test process when an entry ends next to an unmapped page
/// (swift-corelibs-foundation#5472, fixed upstream after Swift 6.3.1). The test process holds
/// thousands of descriptors and starts hundreds of children, and two clean-clone runs in five
/// died of it. Like `Process`, the child gets default signal handling, an empty signal mask and
/// none of the parent's descriptors beyond the three standard ones.
///
/// ```swift
/// let child = try SpawnedProcess(executable: path, arguments: ["--help"], environment: environment,
///                                directory: folder, stdout: out, stderr: err)
/// child.waitUntilExit()
/// ```
public final class SpawnedProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    /// The wait status once the child was reaped.
    private var reaped: Int32?

    public struct SpawnError: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "posix_spawn \(executable): \(String(cString: strerror(code)))" }
    }

    /// Starts `executable` in `directory`, standard input read from the file `stdin`, output and
    /// error appended to the files `stdout` and `stderr` (which may be the same file).
    public init(
        executable: String, arguments: [String], environment: [String: String], directory: String,
        stdin: String = "/dev/null", stdout: String, stderr: String
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_addchdir_np(&actions, directory)
        // The child gets 0, 1 and 2 and no other descriptor of ours.
        #if os(Linux)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let closeOthers: Int32 = 0
        #else
        let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | closeOthers))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnError(executable: executable, code: code) }
        self.pid = pid
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            waitUntilExit()
        }
    }

    /// Whether the child has not ended yet (it is reaped as soon as it has).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard reaped == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        reaped = status
        return false
    }

    /// Blocks until the child has ended.
    public func waitUntilExit() {
        lock.lock()
        defer { lock.unlock() }
        guard reaped == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        reaped = status
    }

    /// Waits up to `seconds` for the child to end; past that it gets SIGTERM, then SIGKILL after 5 s.
    /// Returns false when it had to be stopped.
    @discardableResult
    public func finish(within seconds: Double) -> Bool {
        if eventuallyBlocking(seconds, { !isRunning }) { return true }
        kill(pid, SIGTERM)
        if !eventuallyBlocking(5, { !isRunning }) { kill(pid, SIGKILL) }
        waitUntilExit()
        return false
    }

    /// True when the child exited (rather than died of a signal); valid once it has ended.
    public var exited: Bool { (status & 0x7F) == 0 }

    /// The exit code, or the number of the signal that ended it; valid once it has ended.
    public var terminationStatus: Int32 { exited ? (status >> 8) & 0xFF : status & 0x7F }

    private var status: Int32 {
        lock.lock()
        defer { lock.unlock() }
        return reaped ?? 0
    }
}
