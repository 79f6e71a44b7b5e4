#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One IPv4 or IPv6 address as bytes, the form a socket connects to.
///
/// Host text is read the way the system's resolver reads it, so every spelling of one address
/// (`127.1`, `2130706433`, `0x7f000001`, `[::ffff:127.0.0.1]`) is the same value.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    /// An address from its bytes; nil unless there are 4 or 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An address literal: dotted IPv4 in any form `inet_aton` takes, or IPv6 with or without
    /// brackets. Nil for a name, and for text with a zone id (`fe80::1%eth0`), which names an
    /// interface rather than an address.
    public init?(literal text: String) {
        var host = Substring(text)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "%") || $0 <= 32 }) else { return nil }
        if host.contains(":") {
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, String(host), &v6) == 1 else { return nil }
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            // inet_aton reads the short and numeric forms a connect would, but stops at a space:
            // the guard above keeps "1.2.3.4 junk" from passing as 1.2.3.4.
            var v4 = in_addr()
            guard inet_aton(String(host), &v4) != 0 else { return nil }
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`), which a dual-stack
    /// socket connects to as that IPv4 address.
    public var mappedIPv4: IPAddress? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
        return IPAddress(bytes: Array(bytes[12...]))
    }

    /// Canonical text (`inet_ntop`): `10.0.0.1`, `::1`.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok = bytes.withUnsafeBytes { raw in
            inet_ntop(isIPv4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// How libcurl's `CURLOPT_CONNECT_TO` spells it as a host: IPv6 in brackets.
    var urlHost: String { isIPv4 ? description : "[\(description)]" }
}
