import Foundation
import SandboxWire

/// What a web page the developer happens to visit cannot make a service do, in front of every
/// route of every service (the server puts it there).
///
/// Two ways a page reaches a service on the developer's machine without the developer's consent:
/// - **A cross-site request.** A page may send a POST, PUT, PATCH or DELETE anywhere without asking
///   first, as long as its body is a form, `text/plain` or nothing: the browser sends it and only
///   hides the answer. So a request that changes state needs `Content-Type: application/json`
///   (which a browser sends cross-origin only after a CORS preflight that no service grants),
///   bodies and body-less requests alike, and is refused when its `Origin` or `Sec-Fetch-Site`
///   names another origin (403 `cross_site_request`). A page of the service itself (same origin)
///   passes: the wallet's and the portal's pages keep working.
/// - **DNS rebinding.** A page whose name the attacker makes resolve to 127.0.0.1 is same-origin
///   with itself and may read the answers. Its requests carry its own name in `Host`: only a `Host`
///   that names this machine's loopback (`localhost`, `127.0.0.1`, `[::1]`), an IP address (which no
///   page can rebind), or a name the service was told it is reached by (`allowedHosts`: the bind
///   address, the wallet's public URL, `SANDBOX_ALLOWED_HOSTS`) gets in; any other gets 421
///   `host_not_allowed`.
///
/// Clients that are not browsers send neither `Origin` nor `Sec-Fetch-Site`; they declare JSON:
///
/// ```sh
/// curl -s -X POST http://127.0.0.1:8100/_sandbox/reset --json ''     # a body-less POST, declared JSON
/// ```
public struct SiteGate: Responder {
    /// Names (lower-cased, without port) accepted in `Host` beside loopback and IP addresses.
    let allowedHosts: Set<String>
    let inner: any Responder

    /// - Parameter allowedHosts: the names this service is reached by besides loopback and IP
    ///   addresses (a compose service's name, a machine's name on the network).
    public init(allowedHosts: some Sequence<String>, inner: any Responder) {
        self.allowedHosts = Set(allowedHosts.compactMap(Self.normalizedName))
        self.inner = inner
    }

    public func respond(to request: Request) -> Response {
        if let refusal = refusal(of: request) { return refusal.response }
        return inner.respond(to: request)
    }

    public func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
        if let refusal = refusal(of: request) {
            let response = refusal.response
            reply { response }
            return
        }
        inner.respond(to: request, reply: reply)
    }

    /// The refusal of `request`, or nil when it may go on.
    func refusal(of request: Request) -> HTTPError? {
        let host = request.header("host")
        if let host, !admitsHost(host) {
            return HTTPError(
                status: 421, code: .hostNotAllowed,
                message: "This service answers requests for localhost, 127.0.0.1, [::1], an IP address or a name it was given "
                    + "(SANDBOX_ALLOWED_HOSTS), not for '\(host.prefix(100))': a web page must not reach it through a name of its own.",
                field: "header.Host")
        }
        guard Self.changesState(request.method) else { return nil }
        let sameOrigin: Bool
        switch (request.header("sec-fetch-site")?.lowercased(), request.header("origin")) {
        case (let site?, _) where site != "same-origin" && site != "none":
            return Self.crossSite("Sec-Fetch-Site says \(site.prefix(40))")
        case (_, let origin?):
            guard let host, Self.authority(ofOrigin: origin) == host.lowercased() else {
                return Self.crossSite("its Origin \(origin.prefix(100)) is not this service's")
            }
            sameOrigin = true
        case (let site?, nil):
            sameOrigin = site == "same-origin"
        case (nil, nil):
            sameOrigin = false
        }
        if !sameOrigin && !Self.declaresJSON(request.header("content-type")) {
            return HTTPError(
                status: 415, code: .unsupportedMediaType,
                message: "A request that changes state must declare Content-Type: application/json, even without a body "
                    + "(curl --json ''): a web page cannot send that header to another site.",
                field: "header.Content-Type")
        }
        return nil
    }

    /// Every method but the ones that only read (`GET`, `HEAD`, `OPTIONS`).
    static func changesState(_ method: String) -> Bool {
        method != "GET" && method != "HEAD" && method != "OPTIONS"
    }

    /// `application/json` in any case, with or without parameters (`; charset=utf-8`), spaces and tabs
    /// around it (HTTP's optional whitespace). Compared on the bytes: it runs for every write.
    static func declaresJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        var media = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while let first = media.first, isSpace(first) { media = media.dropFirst() }
        while let last = media.last, isSpace(last) { media = media.dropLast() }
        let expected = "application/json".utf8
        guard media.count == expected.count else { return false }
        return zip(media, expected).allSatisfy { byte, wanted in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == wanted : byte == wanted
        }
    }

    /// `host[:port]` of an `http://` or `https://` origin, lower-cased; nil for `null` and the rest.
    static func authority(ofOrigin origin: String) -> String? {
        let lowered = origin.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let rest = lowered.dropFirst(scheme.count)
            return rest.isEmpty || rest.contains("/") ? nil : String(rest)
        }
        return nil
    }

    /// Whether `Host` (`name[:port]`, `[v6][:port]`) names loopback, an IP address or an allowed name.
    func admitsHost(_ value: String) -> Bool {
        // Most requests name an IPv4 address (`127.0.0.1:8100`): checked on the bytes as they are.
        if let literal = Self.isIPv4Literal(value) { return literal }
        let host = value.lowercased()
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            var address = in6_addr()
            return inet_pton(AF_INET6, String(host[host.index(after: host.startIndex)..<end]), &address) == 1
        }
        let name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var address = in_addr()
        if inet_pton(AF_INET, name, &address) == 1 { return true }
        guard let normalized = Self.normalizedName(name) else { return false }
        return normalized == "localhost" || normalized.hasSuffix(".localhost") || allowedHosts.contains(normalized)
    }

    /// True when `value` (`a.b.c.d[:port]`) names an IPv4 address, read in place; nil for anything
    /// else (a name, an IPv6 address, digits and dots that are no address): the slower path decides.
    static func isIPv4Literal(_ value: String) -> Bool? {
        var value = value
        return value.withUTF8 { bytes -> Bool? in
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            guard end > 0, end <= 15, bytes[..<end].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }) else { return nil }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 16) { name in
                for index in 0..<end { name[index] = CChar(bitPattern: bytes[index]) }
                name[end] = 0
                var address = in_addr()
                return inet_pton(AF_INET, name.baseAddress!, &address) == 1 ? true : nil
            }
        }
    }

    /// A name as `Host` compares it: lower-cased, without a trailing dot or a port; nil when empty.
    static func normalizedName(_ name: String) -> String? {
        var name = name.lowercased().trimmingCharacters(in: .whitespaces)
        if !name.hasPrefix("["), let colon = name.firstIndex(of: ":") { name = String(name[..<colon]) }
        while name.hasSuffix(".") { name.removeLast() }
        return name.isEmpty ? nil : name
    }

    static func crossSite(_ reason: String) -> HTTPError {
        HTTPError(
            status: 403, code: .crossSiteRequest,
            message: "A request that changes state must come from this service's own pages or from a client that is not a browser: "
                + reason + ".",
            field: "header.Origin")
    }
}
