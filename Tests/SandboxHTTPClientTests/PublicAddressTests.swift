import Foundation
import SandboxHTTPClient
import Synchronization
import SandboxTestSupport
import Testing

/// A resolver that answers from a table a test can change between two lookups, as DNS might.
final class ResolverTable: Sendable {
    private let table: Mutex<[String: [String]]>

    init(_ table: [String: [String]]) { self.table = Mutex(table) }

    func set(_ name: String, _ addresses: [String]) { table.withLock { $0[name] = addresses } }

    var resolver: PublicAddress.Resolver {
        { [self] name in table.withLock { $0[name] }?.compactMap(IPAddress.init(literal:)) }
    }
}

@Suite("PublicAddress: a URL is refused when its host is, or resolves to, anything but a public unicast address", .blocksThreads)
struct PublicAddressTests {
    /// Every spelling issue #17 found accepted, and the rest of the special-purpose registry,
    /// each with words its refusal must name.
    static let refused: [(url: String, reason: String)] = [
        // Zone ids: inet_pton cannot read them, so a text check never saw loopback.
        ("https://[::1%25lo]:9304/h", "zone id"), ("https://[fe80::1%25eth0]/h", "zone id"), ("https://[::1%lo]/h", "zone id"),
        // Names that are loopback.
        ("https://localhost/h", "localhost resolves to 127.0.0.1: a loopback"), ("https://localhost./h", "loopback"),
        ("https://hooks.localhost/h", "loopback"), ("https://LOCALHOST:8443/h", "loopback"),
        // Trailing dots.
        ("https://10.0.0.1./h", "private-use (10.0.0.0/8)"), ("https://169.254.169.254./latest/meta-data", "link-local (169.254.0.0/16)"),
        ("https://127.0.0.1../h", "loopback"),
        // Other IPv4 spellings of loopback and private addresses.
        ("https://127.1/h", "loopback"), ("https://2130706433/h", "loopback"), ("https://0x7f000001/h", "loopback"),
        ("https://0177.0.0.1/h", "loopback"), ("https://%31%30.0.0.1/h", "private-use"),
        // RFC 6890 IPv4.
        ("https://0.0.0.0/h", "this network"), ("https://0.1.2.3/h", "this network"), ("https://10.255.0.1/h", "private-use"),
        ("https://100.64.0.1/h", "shared address space"), ("https://100.127.255.254/h", "shared address space"),
        ("https://127.0.0.1/h", "loopback"), ("https://169.254.169.254/h", "link-local"), ("https://172.16.0.1/h", "private-use (172.16.0.0/12)"),
        ("https://172.31.255.255/h", "private-use"), ("https://192.0.0.8/h", "IETF protocol assignments"), ("https://192.0.2.1/h", "documentation"),
        ("https://192.88.99.1/h", "6to4 relay anycast"), ("https://192.168.1.1/h", "private-use (192.168.0.0/16)"),
        ("https://198.18.0.1/h", "benchmarking (198.18.0.0/15)"), ("https://198.19.255.255/h", "benchmarking"),
        ("https://198.51.100.7/h", "documentation"), ("https://203.0.113.9/h", "documentation"),
        ("https://224.0.0.1/h", "multicast"), ("https://239.255.255.250/h", "multicast"),
        ("https://240.0.0.1/h", "reserved (240.0.0.0/4)"), ("https://255.255.255.255/h", "limited broadcast"),
        // IPv6.
        ("https://[::]/h", "unspecified"), ("https://[::1]/h", "loopback (::1)"), ("https://[fec0::1]/h", "site-local"),
        ("https://[fe80::1]/h", "link-local (fe80::/10)"), ("https://[fd00::1]/h", "unique-local"), ("https://[fc00::1]/h", "unique-local"),
        ("https://[ff02::1]/h", "multicast (ff00::/8)"), ("https://[2001:db8::1]/h", "documentation (2001:db8::/32)"),
        ("https://[2001::1]/h", "Teredo"), ("https://[100::1]/h", "discard-only"), ("https://[3fff::1]/h", "documentation (3fff::/20)"),
        ("https://[4000::1]/h", "not global unicast"),
        // IPv6 embeddings of private IPv4 addresses.
        ("https://[::ffff:127.0.0.1]/h", "IPv4-mapped 127.0.0.1"), ("https://[::ffff:10.0.0.1]/h", "IPv4-mapped 10.0.0.1"),
        ("https://[::ffff:7f00:1]/h", "loopback"), ("https://[::127.0.0.1]/h", "IPv4-compatible"), ("https://[::10.0.0.1]/h", "IPv4-compatible"),
        ("https://[64:ff9b::7f00:1]/h", "NAT64 (64:ff9b::/96) of 127.0.0.1"), ("https://[64:ff9b::a9fe:a9fe]/h", "NAT64 (64:ff9b::/96) of 169.254.169.254"),
        ("https://[64:ff9b:1::1]/h", "local-use NAT64"), ("https://[2002:7f00:1::]/h", "6to4 (2002::/16) of 127.0.0.1"),
        ("https://[2002:c0a8:101::1]/h", "6to4 (2002::/16) of 192.168.1.1"),
    ]

    @Test("every special spelling is refused, and its refusal names the range", arguments: refused)
    func refusesSpecial(_ entry: (url: String, reason: String)) {
        #expect {
            try PublicAddress().check(entry.url)
        } throws: { error in
            let reason = (error as? PublicAddress.Refusal)?.reason ?? ""
            return reason.contains(entry.reason)
        }
    }

    static let accepted: [(url: String, address: String)] = [
        ("https://8.8.8.8/h", "8.8.8.8"), ("https://172.32.0.1/h", "172.32.0.1"), ("https://100.128.0.1/h", "100.128.0.1"),
        ("https://198.20.0.1/h", "198.20.0.1"), ("https://223.255.255.254:8443/h", "223.255.255.254"), ("https://1.1.1.1./h", "1.1.1.1"),
        ("https://[2606:4700:4700::1111]/h", "2606:4700:4700::1111"), ("https://[::ffff:8.8.8.8]/h", "::ffff:8.8.8.8"),
        ("https://[64:ff9b::808:808]/h", "64:ff9b::808:808"), ("https://[2002:808:808::1]/h", "2002:808:808::1"),
    ]

    @Test("public unicast addresses, and embeddings of public IPv4 ones, pass with the address to connect to", arguments: accepted)
    func acceptsPublic(_ entry: (url: String, address: String)) throws {
        let destination = try PublicAddress().check(entry.url)
        #expect(destination.addresses.map(\.description) == [entry.address])
    }

    @Test("a name is judged by every address it resolves to: one private address among public ones refuses it")
    func namesAreResolved() throws {
        let dns = ResolverTable([
            "loopback.example": ["127.0.0.1"], "metadata.example": ["169.254.169.254"],
            "mixed.example": ["93.184.216.34", "10.0.0.1"], "v6mixed.example": ["2606:4700::1", "::ffff:192.168.0.1"],
            "public.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
        ])
        let policy = PublicAddress(resolver: dns.resolver)
        for (url, reason) in [
            ("https://loopback.example/h", "loopback.example resolves to 127.0.0.1: a loopback"),
            ("https://metadata.example./h", "metadata.example resolves to 169.254.169.254: a link-local"),
            ("https://MIXED.example/h", "mixed.example resolves to 10.0.0.1: a private-use"),
            ("https://v6mixed.example/h", "IPv4-mapped 192.168.0.1"),
        ] {
            #expect(throws: PublicAddress.Refusal.self, "\(url)") { try policy.check(url) }
            do {
                _ = try policy.check(url)
            } catch {
                #expect(error.reason.contains(reason), "\(url): \(error.reason)")
            }
        }
        let destination = try policy.check("https://public.example:8443/h")
        #expect(destination.host == "public.example" && destination.port == 8443 && destination.addresses.count == 2)
        #expect(try policy.check("https://public.example/h").port == 443)
    }

    @Test("a name that does not resolve is refused for a delivery and accepted, to be checked later, for a registration")
    func unresolvedNames() throws {
        let policy = PublicAddress(resolver: ResolverTable([:]).resolver)
        #expect(throws: PublicAddress.Refusal(reason: "nowhere.example does not resolve")) { try policy.check("https://nowhere.example/h") }
        #expect(try policy.check("https://nowhere.example/h", unresolved: .accept).addresses.isEmpty)
    }

    @Test("the system resolver: localhost is loopback (RFC 6761), a literal needs no lookup")
    func systemResolver() {
        #expect(PublicAddress.system("localhost")?.allSatisfy(PublicAddress.isLoopback) == true)
        #expect(PublicAddress.system("a.b.localhost")?.contains(IPAddress(literal: "127.0.0.1")!) == true)
        #expect(PublicAddress.system("127.0.0.1") == [IPAddress(literal: "127.0.0.1")!])
        #expect(PublicAddress.system("no-such-name.invalid") == nil)
    }

    @Test("allowing loopback (the sandbox flavour) lets 127/8, ::1 and localhost in, and nothing else special")
    func loopbackAllowed() throws {
        let policy = PublicAddress(allowsLoopback: true)
        for url in ["http://127.0.0.1:9/h", "http://localhost:9/h", "http://[::1]:9/h", "http://127.7.7.7/h", "http://[::ffff:127.0.0.1]/h"] {
            #expect(try policy.check(url).isLoopback, "\(url)")
        }
        for url in ["http://10.0.0.1/h", "http://[::1%25lo]/h", "http://169.254.169.254./h", "http://[::127.0.0.1]/h", "http://[64:ff9b::7f00:1]/h"] {
            #expect(throws: PublicAddress.Refusal.self, "\(url)") { try policy.check(url) }
        }
    }
}

@Suite("HTTPClient.send(_:checking:): refused hosts are never connected, and the connection goes to the checked address only", .blocksThreads)
struct PinnedSendTests {
    @Test("a refused URL throws forbiddenAddress and nothing connects to the loopback port it names", arguments: [
        "http://localhost:PORT/h", "http://127.0.0.1:PORT/h", "http://[::ffff:127.0.0.1]:PORT/h", "http://127.1:PORT/h",
        "http://127.0.0.1.:PORT/h", "http://0x7f000001:PORT/h", "http://[::1%25lo]:PORT/h", "http://LOCALHOST.:PORT/h",
        // Full-width letters: libcurl's IDN conversion makes this localhost; refused whether or not the check resolves it.
        "http://\u{FF4C}\u{FF4F}\u{FF43}\u{FF41}\u{FF4C}\u{FF48}\u{FF4F}\u{FF53}\u{FF54}:PORT/h",
    ])
    func refusedIsNeverConnected(_ template: String) throws {
        let listener = try #require(HeldPort())
        let url = template.replacingOccurrences(of: "PORT", with: "\(listener.port)")
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(1), totalTimeout: .seconds(2)))
        #expect(throws: HTTPClientError.forbiddenAddress, "\(url)") {
            try client.send(HTTPClientRequest(method: .post, url: url, body: Array("{}".utf8)), checking: PublicAddress())
        }
        #expect(listener.takeConnections() == 0, "\(url) was connected to")
        // The same URL without the check does reach it: the port was a real target (libcurl itself
        // reads neither the zone id on a non-link-local address nor names with a trailing dot).
        _ = try? client.send(HTTPClientRequest(url: url, timeout: .milliseconds(300)))
        if !template.contains("%25") && !template.contains(".:") && template.allSatisfy(\.isASCII) {
            #expect(listener.takeConnections() >= 1, "\(url) unchecked did not connect")
        }
    }

    @Test("the connection goes to the address the check saw, not to a second lookup of the name (DNS rebinding)")
    func connectsToTheCheckedAddress() throws {
        // localhost as libcurl resolves it is 127.0.0.1; the check's resolver says 127.0.0.2.
        // A port free on both addresses (another test may hold the one 127.0.0.2 got on 127.0.0.1).
        // A plain loop: a lazy compactMap's `first` runs its closure twice for the element it finds
        // (filter, then map), and the second try finds the port the first one holds.
        var pair: (HeldPort, HeldPort)?
        for _ in 0..<50 where pair == nil {
            if let checked = HeldPort(address: "127.0.0.2"), let other = HeldPort(port: checked.port, address: "127.0.0.1") {
                pair = (checked, other)
            }
        }
        let (checked, other) = try #require(pair, "no port free on both 127.0.0.2 and 127.0.0.1 in 50 tries")
        let dns = ResolverTable(["localhost": ["127.0.0.2"]])
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(1), totalTimeout: .seconds(1)))
        let request = HTTPClientRequest(url: "http://localhost:\(checked.port)/h", timeout: .milliseconds(500))
        // Nobody answers on either socket: the request times out, having connected where it was pinned.
        #expect(throws: HTTPClientError.timedOut) {
            try client.send(request, checking: PublicAddress(allowsLoopback: true, resolver: dns.resolver))
        }
        #expect(checked.takeConnections() == 1)
        #expect(other.takeConnections() == 0, "the request followed libcurl's own lookup of localhost")
        // The same handle, now unpinned, follows libcurl's lookup: the pin was the only difference.
        _ = try? client.send(request)
        #expect(other.takeConnections() == 1)
        #expect(checked.takeConnections() == 0)
    }
}
