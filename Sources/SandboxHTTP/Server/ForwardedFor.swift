#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Who a request came from behind trusted proxies (a team's load balancer): the right-most
/// address of `X-Forwarded-For` that is not a trusted proxy, as nginx's `real_ip_recursive` finds
/// it. Without trusted proxies, or from a peer that is not one, the header is ignored: anyone can
/// write it.
///
/// ```swift
/// ForwardedFor.client(peer: "10.0.0.5", header: "203.0.113.7, 10.0.0.9", trusted: ["10.0.0.5", "10.0.0.9"])
/// // "203.0.113.7"
/// ```
public enum ForwardedFor {
    public static func client(peer: String?, header: String?, trusted: [String]) -> String? {
        guard let peer, trusted.contains(peer), let header else { return peer }
        var client = peer
        for hop in header.split(separator: ",").reversed() {
            let address = hop.trimmingCharacters(in: .whitespaces)
            // Something that is not an address ends the walk: the last hop we trust wrote it.
            guard isAddress(address) else { return client }
            client = address
            if !trusted.contains(address) { return address }
        }
        return client
    }

    /// Whether `text` is an IPv4 or IPv6 address.
    public static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
