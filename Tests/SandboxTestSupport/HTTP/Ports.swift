import Foundation

/// A loopback port free at the time of asking (for executables that must be told a port).
public func freePort() -> UInt16 {
    UInt16(HeldPort()?.port ?? 0)
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
public func isAccepting(_ port: some BinaryInteger) -> Bool {
    (try? RawConnection(port: UInt16(port), timeoutSeconds: 2)) != nil
}

/// A socket bound and listening on 127.0.0.1 (or another loopback address), to take a port away
/// from a service under test, or to see whether anything connected to it.
public final class HeldPort {
    public let descriptor: Int32
    public let port: Int

    /// Binds `port` (0: any free one) on `address`; nil when it is taken.
    public init?(port: Int = 0, address host: String = "127.0.0.1") {
        let descriptor = Sockets.tcp()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            close(descriptor)
            return nil
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// A base port P for which P ..< P + count are free on 127.0.0.1 at the time of asking.
///
/// Chosen below Linux's ephemeral range (32768 and up): a port there can become the local end of
/// any outgoing connection of the test run in the meantime, and then `sandbox up --host 0.0.0.0`
/// cannot listen on it.
public func freeConsecutivePorts(_ count: Int) throws -> Int {
    for _ in 0..<50 {
        let base = Int.random(in: 20_000...(32_767 - count))
        // Bind them all at once: a port free alone may be taken by the next check's neighbour.
        let held = (0..<count).compactMap { HeldPort(port: base + $0) }
        if held.count == count { return base }
    }
    throw HarnessError("no \(count) consecutive free ports found between 20000 and 32767")
}
