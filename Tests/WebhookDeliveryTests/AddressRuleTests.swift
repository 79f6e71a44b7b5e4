import Foundation
import SandboxHTTPClient
import Synchronization
import SandboxTestSupport
import Testing

/// A resolver answering from a table the test changes between registration and delivery, as DNS may.
private final class DNSTable: Sendable {
    private let table: Mutex<[String: [String]]>
    init(_ table: [String: [String]] = [:]) { self.table = Mutex(table) }
    func set(_ name: String, _ addresses: [String]) { table.withLock { $0[name] = addresses } }
    var resolver: PublicAddress.Resolver { { [self] name in table.withLock { $0[name] }?.compactMap(IPAddress.init(literal:)) } }
}

@Suite("Server-side requests (#17): a webhook goes only to a public unicast address, checked at input and at every attempt")
struct AddressRuleTests {
    /// The spellings issue #17 found accepted on prod, and the special-purpose ranges beside them.
    static let spellings: [(url: String, reason: String)] = [
        ("https://[::1%25lo]:9304/h", "zone id"), ("https://[fe80::1%25eth0]/h", "zone id"),
        ("https://localhost:9304/h", "localhost resolves to 127.0.0.1"), ("https://hooks.localhost/h", "loopback"),
        ("https://10.0.0.1./h", "private-use (10.0.0.0/8)"), ("https://169.254.169.254./h", "link-local (169.254.0.0/16)"),
        ("https://[fec0::1]/h", "site-local"), ("https://[::127.0.0.1]/h", "IPv4-compatible"), ("https://[::10.0.0.1]/h", "IPv4-compatible"),
        ("https://[::ffff:169.254.169.254]/h", "IPv4-mapped 169.254.169.254"), ("https://[64:ff9b::7f00:1]/h", "NAT64 (64:ff9b::/96) of 127.0.0.1"),
        ("https://[64:ff9b::a00:1]/h", "NAT64 (64:ff9b::/96) of 10.0.0.1"), ("https://[2002:7f00:1::1]/h", "6to4 (2002::/16) of 127.0.0.1"),
        ("https://[2002:a9fe:a9fe::]/h", "6to4 (2002::/16) of 169.254.169.254"), ("https://198.18.0.1/h", "benchmarking"),
        ("https://224.0.0.251/h", "multicast"), ("https://[ff02::1]/h", "multicast"), ("https://255.255.255.255/h", "limited broadcast"),
        ("https://0.0.0.1/h", "this network"), ("https://100.64.0.1/h", "shared address space"), ("https://192.0.0.170/h", "IETF protocol"),
        ("https://192.0.2.10/h", "documentation"), ("https://198.51.100.10/h", "documentation"), ("https://203.0.113.10/h", "documentation"),
        ("https://240.1.2.3/h", "reserved"), ("https://[::]/h", "unspecified"), ("https://[::1]/h", "loopback (::1)"),
        ("https://[fc00::5]/h", "unique-local"), ("https://[fe80::5]/h", "link-local"), ("https://[2001:db8::5]/h", "documentation"),
        ("https://resolves-to-loopback.example/h", "resolves-to-loopback.example resolves to 127.0.0.1"),
        ("https://resolves-to-private.example/h", "resolves to 10.1.2.3"),
    ]

    /// Public names whose records point inside (a test cannot write /etc/hosts, so the host's
    /// resolver is this table): one all loopback, one public with a private address among its records.
    private static func dns() -> DNSTable {
        DNSTable([
            "resolves-to-loopback.example": ["127.0.0.1"], "resolves-to-private.example": ["93.184.216.34", "10.1.2.3"],
            "public.example": ["93.184.216.34"],
        ])
    }

    @Test("prod flavour, at input: each spelling is refused as a callbackUrl (422 outcome_unknown, no payment) and as the merchant's endpoint (400, field url), naming why")
    func refusedAtInput() async throws {
        let host = try TestHost(flavour: .prod, resolver: Self.dns().resolver)
        defer { host.stop() }
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        let before = await device.count("before the refused sales")
        for (url, reason) in Self.spellings {
            let sale = try await device.sale(1000, callbackUrl: url)
            #expect(sale.status == 422 && sale.errorCode == "outcome_unknown" && sale.errorField == "callbackUrl", "callbackUrl \(url): \(sale)")
            #expect(sale.errorMessage?.contains(reason) == true, "callbackUrl \(url): the message does not say \(reason): \(sale.errorMessage ?? "")")
            let endpoint = await host.setWebhook(EU.merchant1, url: url, expect: 400)
            #expect(endpoint.errorField == "url" && endpoint.errorMessage?.contains(reason) == true, "endpoint \(url): \(endpoint)")
        }
        #expect(await device.count("after the refused sales") == before, "a refused callbackUrl left a payment")
        // A public name and an address are accepted.
        await host.setWebhook(EU.merchant1, url: "https://public.example/h", expect: 200)
        await host.setWebhook(EU.merchant1, url: "https://93.184.216.34/h", expect: 200)
    }

    @Test("prod flavour, at delivery: an endpoint that resolved publicly when registered and now resolves to a special address is never connected; the attempt fails with the reason in the webhook log")
    func refusedAtDelivery() async throws {
        let dns = DNSTable()
        let listener = try #require(HeldPort())
        let targets = [
            "127.0.0.1", "::1", "10.0.0.1", "169.254.169.254", "::ffff:127.0.0.1", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::",
            "fec0::1", "fe80::1", "fd00::1", "198.18.0.1", "224.0.0.1", "255.255.255.255", "100.64.0.1", "0.0.0.0", "2001:db8::1",
        ]
        let names = targets.indices.map { "rebind\($0).example" }
        for name in names { dns.set(name, ["93.184.216.34"]) }
        let directory = TemporaryDirectory()
        var events: [String] = []
        do {
            // Registered while each name is public, and not delivered yet.
            let host = try TestHost(flavour: .prod, directory: directory, dispatches: false, resolver: dns.resolver)
            defer { host.stop() }
            for name in names {
                await host.setWebhook(EU.merchant1, url: "https://\(name):\(listener.port)/hook", expect: 200)
                events.append(try await host.trigger("payment.succeeded", merchant: EU.merchant1))
            }
        }
        // The records change; the host that delivers asks again at the attempt.
        for (name, target) in zip(names, targets) { dns.set(name, [target]) }
        let host = try TestHost(flavour: .prod, directory: directory, resolver: dns.resolver)
        defer { host.stop() }
        for (index, id) in events.enumerated() {
            let detail = await host.waitForAttempts(id, 1, "delivery to \(names[index])")
            let error = attemptLog(detail).first?.entry["error"] as? String ?? ""
            let address = IPAddress(literal: targets[index])!.description
            #expect(
                error.contains("forbiddenAddress") && error.contains("\(names[index]) resolves to \(address)"),
                "\(names[index]) → \(targets[index]): \(error)")
            #expect(detail.string("state") == "pending", "a refused attempt is a failed one, retried later: \(detail)")
        }
        #expect(listener.takeConnections() == 0, "a delivery connected to 127.0.0.1:\(listener.port)")
    }

    @Test("sandbox flavour keeps loopback receivers, and a delivery connects to the address its check resolved, not to another lookup")
    func sandboxPinnedLoopback() async throws {
        // localhost is 127.0.0.1 to libcurl; the host's resolver says 127.0.0.2.
        let (checked, other) = try receiversOnOnePort()
        defer { checked.stop(); other.stop() }
        let dns = DNSTable(["localhost": ["127.0.0.2"], "inside.example": ["10.0.0.1"]])
        let host = try TestHost(flavour: .sandbox, resolver: dns.resolver)
        defer { host.stop() }
        await host.setWebhook(EU.merchant1, url: "http://localhost:\(checked.port)/hook", expect: 200)
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        await host.waitForState(id, "delivered", "delivery to localhost (127.0.0.2)")
        #expect(checked.deliveredIds == [id])
        #expect(other.received.isEmpty, "the delivery went to libcurl's own lookup of localhost")
        // Loopback only: a private address is refused on the sandbox flavour too.
        await host.setWebhook(EU.merchant1, url: "https://inside.example/hook", expect: 400)
    }

    @Test("a redirect is not followed: a 3xx is a failed attempt, retried later, and its Location never gets the event", arguments: [301, 302, 307, 308])
    func redirectsAreFailures(_ status: Int) async throws {
        let redirecting = try Receiver(answering: 200)
        defer { redirecting.stop() }
        let target = try Receiver(answering: 200)
        defer { target.stop() }
        redirecting.answer(status, location: target.hookURL)
        let host = try TestHost(flavour: .sandbox)
        defer { host.stop() }
        await host.setWebhook(EU.merchant1, url: redirecting.hookURL, expect: 200)
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        let detail = await host.waitForAttempts(id, 1, "delivery answered \(status)")
        #expect(attemptLog(detail).first?.status == status && detail.string("state") == "pending", "\(detail)")
        #expect(target.received.isEmpty, "the \(status) was followed to its Location")
    }

    @Test("prod flavour: the operator's own receiver (sandbox up's inbox on loopback) still gets the webhooks of merchants without an endpoint, while a merchant may not name it")
    func operatorReceiverOnProd() async throws {
        let inbox = try Receiver(answering: 200)
        defer { inbox.stop() }
        let url = inbox.hookURL
        let host = try TestHost(flavour: .prod, webhookURL: { _ in url })
        defer { host.stop() }
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        await host.waitForState(id, "delivered", "delivery to the operator's inbox")
        #expect(inbox.deliveredIds == [id])
        await host.setWebhook(EU.merchant1, url: url, expect: 400)
    }
}

/// Two receivers on the same port, one on 127.0.0.2 and one on 127.0.0.1: the port the system gave
/// the first may be taken on 127.0.0.1 by another test, so a few ports are tried.
private func receiversOnOnePort() throws -> (checked: Receiver, other: Receiver) {
    for _ in 1...20 {
        let checked = try Receiver(answering: 200, address: "127.0.0.2")
        if let other = try? Receiver(answering: 200, port: checked.port) { return (checked, other) }
        checked.stop()
    }
    throw NoSharedPort()
}

private struct NoSharedPort: Error, CustomStringConvertible {
    var description: String { "no port was free on both 127.0.0.1 and 127.0.0.2 in 20 tries" }
}
