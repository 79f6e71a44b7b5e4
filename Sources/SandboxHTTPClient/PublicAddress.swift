import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rule for requests a server sends on a client's say (webhook endpoints, callback URLs):
/// only to public unicast addresses, decided on the addresses the name resolves to.
///
/// A URL's host text says little: `[::1%25lo]`, `10.0.0.1.`, `[::ffff:10.0.0.1]` or a public
/// name with a 127.0.0.1 record all reach the machine or its network. So the host is read with
/// libcurl's own URL parser, resolved (`getaddrinfo`), and refused when any of its addresses is
/// special-purpose (``specialRange(of:)``); ``HTTPClient/send(_:checking:)`` then connects to the
/// checked address only, so a record changed between the check and the connect (DNS rebinding)
/// is never followed.
///
/// ```swift
/// let policy = PublicAddress()
/// let destination = try policy.check("https://hooks.example.com/monei")
/// print(destination.addresses)
/// ```
public struct PublicAddress: Sendable {
    /// Looks a name up; nil or empty when it does not resolve.
    public typealias Resolver = @Sendable (_ name: String) -> [IPAddress]?

    /// Whether loopback addresses pass too (the sandbox flavour's local receivers).
    public var allowsLoopback: Bool
    /// How names become addresses: the system's resolver, or a test's table.
    public var resolver: Resolver

    /// - Parameters:
    ///   - allowsLoopback: Lets 127.0.0.0/8 and `::1` through, nothing else special.
    ///   - resolver: ``system`` unless a test injects answers.
    public init(allowsLoopback: Bool = false, resolver: @escaping Resolver = PublicAddress.system) {
        self.allowsLoopback = allowsLoopback
        self.resolver = resolver
    }

    /// Where a checked URL may be sent.
    public struct Destination: Sendable, Equatable {
        /// `http` or `https`, lower-cased.
        public let scheme: String
        /// The host as checked: lower-cased, without brackets or trailing dots.
        public let host: String
        public let port: Int
        /// Every address the host resolved to, each checked; empty only when ``check(_:unresolved:)``
        /// was told to accept a name that does not resolve now.
        public let addresses: [IPAddress]

        /// Whether the host is loopback only (the sandbox flavour lets such URLs use http).
        public var isLoopback: Bool { !addresses.isEmpty && addresses.allSatisfy(PublicAddress.isLoopback) }
    }

    /// Why a URL was refused, in words for an error message or the webhook log.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public init(reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// What to do with a name that does not resolve now.
    public enum Unresolved: Sendable {
        /// Refuse it: nothing to connect to (a delivery).
        case refuse
        /// Accept it, to be checked again at each delivery (a URL being registered).
        case accept
    }

    /// Reads, resolves and checks a URL.
    ///
    /// - Returns: The destination with its checked addresses.
    /// - Throws: ``Refusal`` naming the spelling or address at fault.
    public func check(_ url: String, unresolved: Unresolved = .refuse) throws(Refusal) -> Destination {
        let parts = try Self.parse(url)
        if let zone = parts.zone, !zone.isEmpty {
            throw Refusal(reason: "\(parts.host)%\(zone) has a zone id: it names a local interface, not a public address")
        }
        var host = parts.host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // `10.0.0.1.` is 10.0.0.1 and `localhost.` is localhost: a trailing dot only says "absolute".
        while host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { throw Refusal(reason: "the URL has no host") }

        let addresses: [IPAddress]
        let named: Bool
        if let literal = IPAddress(literal: host) {
            addresses = [literal]
            named = false
        } else {
            guard !host.contains("%"), !host.contains(":") else { throw Refusal(reason: "\(host) is neither a name nor an address") }
            named = true
            addresses = resolver(host) ?? Self.localhost(host) ?? []
        }
        if addresses.isEmpty {
            guard unresolved == .accept else { throw Refusal(reason: "\(host) does not resolve") }
            return Destination(scheme: parts.scheme, host: host, port: parts.port, addresses: [])
        }
        for address in addresses {
            if allowsLoopback && Self.isLoopback(address) { continue }
            if let range = Self.specialRange(of: address) {
                let what = "\(Self.article(range)) \(range) address, not a public one"
                throw Refusal(reason: named ? "\(host) resolves to \(address): \(what)" : "\(address) is \(what)")
            }
        }
        return Destination(scheme: parts.scheme, host: host, port: parts.port, addresses: addresses)
    }

    private static func article(_ range: String) -> String {
        guard let first = range.first?.lowercased() else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }

    // MARK: - Reading the URL as libcurl does

    private struct Parts {
        let scheme: String
        let host: String
        let zone: String?
        let port: Int
    }

    private static func parse(_ url: String) throws(Refusal) -> Parts {
        guard !url.utf8.contains(0), let handle = curl_url() else { throw Refusal(reason: "the URL cannot be read") }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else { throw Refusal(reason: "the URL cannot be read") }
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME)?.lowercased(), let host = part(CURLUPART_HOST, UInt32(CURLU_URLDECODE)),
              let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap(Int.init)
        else { throw Refusal(reason: "the URL has no host") }
        return Parts(scheme: scheme, host: host, zone: part(CURLUPART_ZONEID, UInt32(CURLU_URLDECODE)), port: port)
    }

    // MARK: - The system's resolver

    /// `localhost` and `*.localhost` are loopback without asking (RFC 6761), as libcurl has them:
    /// also when a resolver has no answer for them.
    private static func localhost(_ name: String) -> [IPAddress]? {
        guard name == "localhost" || name.hasSuffix(".localhost") else { return nil }
        return [IPAddress(bytes: [127, 0, 0, 1])!, IPAddress(bytes: Array(repeating: 0, count: 15) + [1])!]
    }

    /// `getaddrinfo`, as libcurl would ask it (IDN names encoded first), every address once;
    /// localhost names are loopback without asking.
    public static let system: Resolver = { name in
        if let loopback = localhost(name) { return loopback }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        // AI_IDN (glibc): `ｌｏｃａｌｈｏｓｔ` is looked up as libcurl's libidn2 would send it.
        hints.ai_flags = 0x0040
        #else
        // Darwin's resolver encodes international names itself and has no AI_IDN.
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        var status = getaddrinfo(name, nil, &hints, &list)
        if status == EAI_BADFLAGS {
            hints.ai_flags = 0
            status = getaddrinfo(name, nil, &hints, &list)
        }
        guard status == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let info = current.pointee
            if let raw = info.ai_addr {
                var bytes: [UInt8]?
                if info.ai_family == AF_INET {
                    bytes = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
                } else if info.ai_family == AF_INET6 {
                    bytes = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
                }
                if let bytes, let address = IPAddress(bytes: bytes), !addresses.contains(address) { addresses.append(address) }
            }
            entry = info.ai_next
        }
        return addresses
    }
}
