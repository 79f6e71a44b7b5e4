import DeviceTransport
import Foundation
import SandboxWire

/// The clocks, faults, the customer at the wallet, the inbox and the request journal.
extension TestSandbox {
    // MARK: - Clocks

    /// Moves the sandbox clock `seconds` ahead: of one region's host, or of every host and the
    /// wallet (nil), so that sessions, codes, orders and retries fall due together.
    public func advanceClock(by seconds: Double, region: String? = nil) async throws(TestSandboxError) {
        let body = try Self.json(["advanceSeconds": seconds])
        var targets = clocked
        if let region { targets = [try host(region)] }
        try await Self.each(targets) { base async throws(TestSandboxError) in try await call("POST", base, "/_sandbox/clock", body: body) }
    }

    /// A region's sandbox clock.
    public func clock(region: String) async throws(TestSandboxError) -> SandboxClockState {
        try await call("GET", try host(region), "/_sandbox/clock", as: SandboxClockState.self)
    }

    /// The hosts and the wallet: what has a clock.
    private var clocked: [URL] {
        endpoints.environments.keys.sorted().map { endpoints.environments[$0]! } + [endpoints.wallet].compactMap { $0 }
    }

    // MARK: - Faults

    /// Sets a fault on a region's host (docs/terminal-lifecycle.md, "Faults"): ``Fault/status(_:code:_:count:)``,
    /// ``Fault/delay(milliseconds:_:count:)``, ``Fault/drop(_:count:)``, or any the host takes. Answers its id.
    @discardableResult
    public func addFault(_ fault: Fault, region: String) async throws(TestSandboxError) -> String {
        struct Added: Decodable { let id: String }
        return try await call("POST", try host(region), "/_sandbox/faults", body: try Self.json(fault), as: Added.self).id
    }

    /// Clears every fault of a region's host.
    public func clearFaults(region: String) async throws(TestSandboxError) {
        try await call("DELETE", try host(region), "/_sandbox/faults")
    }

    // MARK: - The customer at the card screen

    /// Queues what the customer does at the next card screen of `terminalId` on `region`'s host
    /// (`POST /_sandbox/customer/{terminalId}`): the card tapped (a `sandbox-data/cards.json` name),
    /// the PIN typed, the choice on a DCC offer. The simulated reader of the device logged in on that
    /// terminal takes one turn per card screen, before the app's own script; a UI test drives the app
    /// with it, since it runs in another process than the app. Answers the terminal's queue.
    ///
    /// ```swift
    /// try await sandbox.queueCustomer(.tap("mc-pin", pin: "wrong"), terminalId: "EU-T0101", region: "EU")
    /// try await sandbox.queueCustomer(.tap("visa-us-dcc", dccOfferAccepted: true), terminalId: "EU-T0101", region: "EU")
    /// try await sandbox.queueCustomer(.cancel(afterSeconds: 3), terminalId: "EU-T0101", region: "EU")
    /// ```
    @discardableResult
    public func queueCustomer(_ turn: CustomerTurn, terminalId: String, region: String) async throws(TestSandboxError) -> [CustomerTurn] {
        try await call("POST", try host(region), Self.customerPath(terminalId), body: try Self.json(turn), as: CustomerQueue.self).turns
    }

    /// The turns still queued for `terminalId`, the next first.
    public func queuedCustomers(terminalId: String, region: String) async throws(TestSandboxError) -> [CustomerTurn] {
        try await call("GET", try host(region), Self.customerPath(terminalId), as: CustomerQueue.self).turns
    }

    /// Empties `terminalId`'s queue: the app's own script plays again.
    public func clearCustomers(terminalId: String, region: String) async throws(TestSandboxError) {
        try await call("DELETE", try host(region), Self.customerPath(terminalId))
    }

    private struct CustomerQueue: Decodable { let turns: [CustomerTurn] }

    private static func customerPath(_ terminalId: String) -> String { "/_sandbox/customer/" + DeviceTransport.encode(terminalId) }

    // MARK: - The customer at the wallet

    /// The customer's answer to the next QR order or BLIK request (of `terminalId`, or of any
    /// terminal), `afterSeconds` after it comes on the wallet's clock: a standing rule used once.
    public enum CustomerAnswer: Sendable, Equatable {
        case approve
        /// With the wallet's reason (`declined_by_customer`, `insufficient_funds`, …).
        case decline(reason: String)
        case expire
    }

    public func answerNextWalletPayment(_ answer: CustomerAnswer, terminalId: String? = nil, afterSeconds: Int = 0) async throws(TestSandboxError) {
        // The wallet's own rule body (a seed's wallet rules are the same), used once.
        var rule = WalletSeed.Rule(terminalId: terminalId, action: "approve", afterSeconds: Double(afterSeconds), count: 1)
        switch answer {
        case .approve: break
        case .decline(let reason): (rule.action, rule.reason) = ("decline", reason)
        case .expire: rule.action = "expire"
        }
        try await call("POST", try wallet(), "/api/rules", body: try Self.json(rule))
    }

    /// A BLIK code from the customer's bank app (`jan`, `anna`, `piotr` of `sandbox-data/wallet.json`),
    /// good for 120 s on the wallet's clock.
    public func blikCode(customer: String = "jan") async throws(TestSandboxError) -> String {
        struct Code: Decodable { let code: String }
        return try await call("POST", try wallet(), "/api/blik/codes", body: try Self.json(["customerId": customer]), as: Code.self).code
    }

    /// Removes every standing rule of the wallet.
    public func clearWalletRules() async throws(TestSandboxError) {
        try await call("DELETE", try wallet(), "/api/rules")
    }

    // MARK: - What the sandbox saw

    /// A webhook the sandbox's inbox received.
    public typealias ReceivedWebhook = InboxDelivery

    /// What the inbox received, newest first.
    public func receivedWebhooks() async throws(TestSandboxError) -> [ReceivedWebhook] {
        struct Events: Decodable { let events: [ReceivedWebhook] }
        return try await call("GET", try inbox(), "/api/events", as: Events.self).events
    }

    /// Empties the inbox.
    public func clearReceivedWebhooks() async throws(TestSandboxError) {
        try await call("DELETE", try inbox(), "/api/events")
    }

    /// A request a host answered, from its request journal.
    public struct JournalEntry: Decodable, Sendable, Equatable {
        public let requestId: String
        public let time: String
        public let surface: String
        public let method: String
        public let path: String
        public let status: Int
        public let milliseconds: Double
        public let errorCode: String?
        public let fault: String?
        public let dropped: Bool
    }

    /// The requests a region's host answered, newest first (its back office's journal, through the
    /// portal, which holds the region's key).
    public func requests(region: String) async throws(TestSandboxError) -> [JournalEntry] {
        struct Journal: Decodable { let requests: [JournalEntry] }
        _ = try host(region)
        return try await call("GET", try portal(), "/api/regions/\(DeviceTransport.encode(region))/requests", as: Journal.self).requests
    }
}
