import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running service's hold on a file of its data directory: `sandbox up` holds `sandbox.lock`
/// and one lock per database it opens (`eu.lock`, `wallet.lock` …), `sandbox-host --env EU` holds
/// `eu.lock`. A second service that would open the same database refuses to start and names the
/// running one.
///
/// An advisory `flock`: the kernel drops it when the holder exits, even on SIGKILL, so a crash
/// leaves nothing to clean up by hand. The file keeps who holds it (PID, command, ports) as JSON
/// for the refusal's message.
///
/// ```swift
/// let lock = try ServiceLock.acquire(directory.appendingPathComponent("eu.lock"),
///                                    holder: .init(command: "sandbox-host --env EU", ports: [8100]))
/// defer { lock.release() }
/// ```
public final class ServiceLock: @unchecked Sendable {
    /// Who holds a lock, as its file says.
    public struct Holder: Codable, Equatable, Sendable {
        public var pid: Int32
        public var command: String
        public var ports: [Int]

        public init(pid: Int32 = getpid(), command: String, ports: [Int]) {
            self.pid = pid
            self.command = command
            self.ports = ports
        }

        /// `sandbox up (PID 4242, ports 8100–8114)`.
        public var description: String {
            let sorted = ports.sorted()
            let listed: String
            if let first = sorted.first, let last = sorted.last, sorted.count > 1, last - first == sorted.count - 1 {
                listed = "ports \(first)–\(last)"
            } else if sorted.isEmpty {
                listed = "ports not yet known"
            } else {
                listed = (sorted.count == 1 ? "port " : "ports ") + sorted.map(String.init).joined(separator: ", ")
            }
            return "\(command) (PID \(pid), \(listed))"
        }
    }

    public let file: URL
    private let descriptor: Int32
    private var released = false
    private let guardLock = NSLock()

    private init(file: URL, descriptor: Int32) {
        self.file = file
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock at `file` (creating it and its folder) and records `holder` in it.
    ///
    /// - Throws: `UsageError` naming the running holder when another process has the lock.
    public static func acquire(_ file: URL, holder: Holder) throws(UsageError) -> ServiceLock {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw UsageError("cannot create \(file.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw UsageError("cannot open \(file.path): \(String(cString: strerror(errno)))") }
        // A holder writes itself just after taking the lock, and a client's probe (`isHeld`) holds
        // a shared lock for an instant: a lock held by a file that names nobody is retried briefly.
        for _ in 0..<100 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                let lock = ServiceLock(file: file, descriptor: descriptor)
                lock.record(holder)
                return lock
            }
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw UsageError("cannot lock \(file.path): \(reason)")
            }
            if let running = Self.holder(file) {
                close(descriptor)
                throw UsageError(
                    "\(running.description) is already running on \(file.deletingLastPathComponent().path) (it holds \(file.lastPathComponent)); stop it, or give this one another --data-dir")
            }
            usleep(10_000)
        }
        close(descriptor)
        throw UsageError("another process holds \(file.path); stop it, or give this one another --data-dir")
    }

    /// Records the ports the service listens on once it knows them.
    public func update(ports: [Int]) {
        guard var holder = Self.holder(file) else { return }
        holder.ports = ports
        record(holder)
    }

    /// Empties the file and gives the lock up (also done when the lock is freed, and by the
    /// kernel when the process ends).
    public func release() {
        guardLock.lock()
        defer { guardLock.unlock() }
        guard !released else { return }
        released = true
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Who holds (or last held) the lock at `file`, or nil when its file names nobody.
    public static func holder(_ file: URL) -> Holder? {
        guard let data = FileManager.default.contents(atPath: file.path), !data.isEmpty else { return nil }
        return try? JSONDecoder().decode(Holder.self, from: data)
    }

    /// Whether a running process holds the lock at `file`; nil when there is no such file.
    public static func isHeld(_ file: URL) -> Bool? {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(descriptor, LOCK_UN)
        return false
    }

    private func record(_ holder: Holder) {
        guard let data = try? JSONEncoder().encode(holder) else { return }
        _ = ftruncate(descriptor, 0)
        _ = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}
