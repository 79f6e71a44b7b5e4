import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a bind address means to others: whether only this machine reaches it, and the address a
/// person on another machine (or a phone scanning a QR code) would type.
///
/// ```swift
/// ListenAddress.isLoopback("127.0.0.1")   // true: sandbox control stays open
/// ListenAddress.reachable("0.0.0.0")      // "192.168.1.20", this machine's address on its network
/// ```
public enum ListenAddress {
    /// Whether an IPv4 bind address is loopback (127.0.0.0/8), reached from this machine only.
    public static func isLoopback(_ host: String) -> Bool {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// The address to advertise for a service bound to `host`: the host itself, or for the
    /// wildcard `0.0.0.0` the first IPv4 address of a network interface that is up and not
    /// loopback (`127.0.0.1` on a machine that has none).
    public static func reachable(_ host: String) -> String {
        guard host == "0.0.0.0" else { return host }
        return firstInterfaceAddress() ?? "127.0.0.1"
    }

    private static func firstInterfaceAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let done = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                withUnsafePointer(to: inet.pointee.sin_addr) { inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) != nil }
            }
            if done { return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        return nil
    }
}
