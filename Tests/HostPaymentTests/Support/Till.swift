import CardPayload
import Foundation
import SimulatedReader
import SandboxTestSupport
import Testing

/// The test cards of `sandbox-data/cards.json`, as the simulated reader taps them.
let cardCatalogue: CardCatalogue? = try? CardCatalogue.load(from: Paths.sandboxData.appendingPathComponent("cards.json"))

func testCard(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TestCard {
    let catalogue = try #require(cardCatalogue, "sandbox-data/cards.json does not load", sourceLocation: sourceLocation)
    return try #require(catalogue.card(named: name), "cards.json has no card \(name)", sourceLocation: sourceLocation)
}

/// A logged-in terminal with its phone: a session on the host and a simulated reader whose
/// manual clock is aligned to the host's `serverTime` at every prepare.
///
/// Every call of docs/card-payments.md is a method answering the raw ``HTTPReply``; the composite
/// ones (``pay(_:amount:tip:reference:step:)``) tap a card and send the sale in one go.
final class Till {
    let host: Host
    let terminal: TerminalFixture
    let device: DeviceCredential
    private(set) var token: String
    /// The device's clock: far from the host's, so only the `serverTime` offset makes `readAt` right.
    let clock = ManualReaderClock(Date(timeIntervalSince1970: 1_790_000_000))
    let reader: Reader
    /// The region's reader key from the last host prepare.
    private(set) var readerKey: [UInt8] = []
    private(set) var keyId = ""
    /// Host time minus device time, in seconds, from the last host prepare.
    private(set) var offset: TimeInterval = 0
    /// The last `POST /terminal/v1/reader/prepare` answer.
    private(set) var prepared: HTTPReply?

    var id: String { terminal.id }
    var region: String { host.region }
    var currency: String { host.currency }
    var service: Service { host.service }
    var label: String { "[\(region) \(id)]" }

    private init(host: Host, terminal: TerminalFixture, device: DeviceCredential, token: String) {
        self.host = host
        self.terminal = terminal
        self.device = device
        self.token = token
        reader = Reader(
            clock: clock, location: nil, script: ReaderScript(preparationSeconds: 1), accountLinked: true,
            tokenProvider: { _ in .provide("apple-reader-token", requiresRelink: false) })
    }

    /// Registers a device on `terminal`, logs it in, and prepares its reader.
    static func open(_ host: Host, _ terminal: TerminalFixture, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Till {
        let device = try await host.register(terminal, sourceLocation: sourceLocation)
        let token = try await host.login(device, autoLogin: terminal.autoLogin, sourceLocation: sourceLocation)
        let till = Till(host: host, terminal: terminal, device: device, token: token)
        try await till.align(sourceLocation: sourceLocation)
        try await till.reader.prepare(token: "apple-reader-token")
        return till
    }

    /// A device registered and logged in some other way (a seed) with `token`; prepares its reader.
    static func adopt(
        _ host: Host, _ terminal: TerminalFixture, _ device: DeviceCredential, token: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Till {
        let till = Till(host: host, terminal: terminal, device: device, token: token)
        try await till.align(sourceLocation: sourceLocation)
        try await till.reader.prepare(token: "apple-reader-token")
        return till
    }

    /// Logs in again a device registered earlier (on a host started again on the same data) and prepares its reader.
    static func resume(
        _ host: Host, _ terminal: TerminalFixture, _ device: DeviceCredential, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Till {
        let token = try await host.login(device, autoLogin: terminal.autoLogin, sourceLocation: sourceLocation)
        let till = Till(host: host, terminal: terminal, device: device, token: token)
        try await till.align(sourceLocation: sourceLocation)
        try await till.reader.prepare(token: "apple-reader-token")
        return till
    }

    // MARK: Session, clock and reader

    /// `POST /terminal/v1/reader/prepare`: takes the reader key and aligns the device clock with `serverTime`.
    func align(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let reply = expectReply(
            await service.call("POST", "/terminal/v1/reader/prepare", bearer: token), 200, nil, "\(label) reader prepare",
            sourceLocation: sourceLocation)
        prepared = reply
        let key = try #require(reply.string("readerKey"), "\(label) prepare gives no readerKey: \(reply)", sourceLocation: sourceLocation)
        readerKey = Array(try #require(Data(base64Encoded: key), "\(label) readerKey is not base64: \(key)", sourceLocation: sourceLocation))
        keyId = reply.string("keyId") ?? ""
        let serverTime = try #require(
            parseTime(reply["serverTime"]), "\(label) prepare gives no ISO 8601 serverTime: \(reply)", sourceLocation: sourceLocation)
        offset = serverTime.timeIntervalSince(clock.now())
    }

    /// Logs in again (a new session; the old one ends) and re-aligns.
    func relogin(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        token = try await host.login(device, autoLogin: terminal.autoLogin, sourceLocation: sourceLocation)
        try await align(sourceLocation: sourceLocation)
    }

    /// Moves the host clock; logs in again when the move outlives the 600 s session, then re-aligns the reader.
    func advance(_ seconds: Int, _ step: String, relogin: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        await host.advanceClock(seconds, "\(label) \(step)", sourceLocation: sourceLocation)
        if relogin {
            try await self.relogin(sourceLocation: sourceLocation)
        } else {
            try await align(sourceLocation: sourceLocation)
        }
    }

    /// Plays `script` on the card screen for `amount` (aligned to the host first), for this terminal
    /// or, to test the host's refusal, another one.
    func read(_ script: CardScript, amount: Int, for terminalId: String? = nil, currency: String? = nil) async throws -> ReadResult {
        try await align()
        if await reader.needsPrepare { try await reader.prepare(token: "apple-reader-token") }
        await reader.present(script)
        return try await reader.read(
            amount: amount, currency: currency ?? self.currency, region: region, terminalId: terminalId ?? id,
            readerKey: readerKey, serverTimeOffset: offset)
    }

    /// Taps card `name` (2 s after the screen appears) and returns the sealed payload.
    func tap(
        _ name: String, amount: Int, pin: PinEntry = .correct, pinOnRequest: PinEntry = .correct, for terminalId: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let result = try await read(
            .tap(try testCard(name, sourceLocation: sourceLocation), pin: pin, pinOnRequest: pinOnRequest), amount: amount,
            for: terminalId)
        return try #require(
            result.sealedPayload, "\(label) tapping \(name) gave no payload: \(result.value)", sourceLocation: sourceLocation)
    }

    /// The customer types the PIN the host asked for; the sealed PIN payload, or nil with the reader's outcome.
    func enterPin() async throws -> ReadResult {
        try await align()
        return try await reader.enterPin(region: region, terminalId: id, readerKey: readerKey, serverTimeOffset: offset)
    }

    // MARK: Terminal API

    func sale(
        amount: Int, tip: Int? = nil, reference: String? = nil, currency: String? = nil, payload: String? = nil,
        outcome: String? = nil, checkout: String? = nil, country: String? = nil, key: String? = nil,
        extra: [String: Any] = [:]
    ) async -> HTTPReply {
        var body: [String: Any] = ["currency": currency ?? self.currency, "requestedAmount": amount]
        if let tip { body["tipAmount"] = tip }
        if let reference { body["reference"] = reference }
        if let payload { body["cardPayload"] = payload }
        if let outcome { body["readerOutcome"] = outcome }
        if let checkout { body["checkoutId"] = checkout }
        if let country { body["countryCode"] = country }
        body.merge(extra) { $1 }
        return await service.call(
            "POST", "/terminal/v1/transactions/sale", bearer: token, body: body, headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    func rawSale(_ json: String) async -> HTTPReply {
        await service.call("POST", "/terminal/v1/transactions/sale", bearer: token, raw: json)
    }

    func refund(
        _ original: String, amount: Int, currency: String? = nil, payload: String? = nil, outcome: String? = nil,
        reference: String? = nil, key: String? = nil
    ) async -> HTTPReply {
        var body: [String: Any] = ["currency": currency ?? self.currency, "requestedAmount": amount, "transactionId": original]
        if let payload { body["cardPayload"] = payload }
        if let outcome { body["readerOutcome"] = outcome }
        if let reference { body["reference"] = reference }
        return await service.call(
            "POST", "/terminal/v1/transactions/refund", bearer: token, body: body, headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    func card(_ transaction: String, payload: String? = nil, outcome: String? = nil) async -> HTTPReply {
        var body: [String: Any] = [:]
        if let payload { body["cardPayload"] = payload }
        if let outcome { body["readerOutcome"] = outcome }
        return await service.call("POST", "/terminal/v1/transactions/\(transaction)/card", bearer: token, body: body)
    }

    func pin(_ transaction: String, payload: String, key: String? = nil) async -> HTTPReply {
        await service.call(
            "POST", "/terminal/v1/transactions/\(transaction)/pin", bearer: token, body: ["pinPayload": payload],
            headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    func dcc(_ transaction: String, accepted: Bool, key: String? = nil) async -> HTTPReply {
        await service.call(
            "POST", "/terminal/v1/transactions/\(transaction)/dcc", bearer: token, body: ["dccOfferAccepted": accepted],
            headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    func reversal(_ transaction: String, byUser: Bool = false, key: String? = nil) async -> HTTPReply {
        await service.call(
            "POST", "/terminal/v1/transactions/\(transaction)/reversal", bearer: token, body: ["isCancelledByUser": byUser],
            headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    func details(_ transaction: String) async -> HTTPReply {
        await service.call("GET", "/terminal/v1/transactions/details?transactionId=\(q(transaction))", bearer: token)
    }

    func details(query: String) async -> HTTPReply {
        await service.call("GET", "/terminal/v1/transactions/details?\(query)", bearer: token)
    }

    func last() async -> HTTPReply { await service.call("GET", "/terminal/v1/transactions/last", bearer: token) }

    func history(_ query: String = "") async -> HTTPReply {
        await service.call("GET", "/terminal/v1/transactions" + (query.isEmpty ? "" : "?" + query), bearer: token)
    }

    func countReply(_ query: String = "") async -> HTTPReply {
        await service.call("GET", "/terminal/v1/transactions/count" + (query.isEmpty ? "" : "?" + query), bearer: token)
    }

    func statistics(_ query: String) async -> HTTPReply {
        await service.call("GET", "/terminal/v1/statistics?\(query)", bearer: token)
    }

    func receipt(_ transaction: String, type: String, email: String? = nil) async -> HTTPReply {
        var body: [String: Any] = ["receiptType": type]
        if let email { body["email"] = email }
        return await service.call("POST", "/terminal/v1/transactions/\(transaction)/receipt", bearer: token, body: body)
    }

    func validate(_ type: String, amount: Int? = nil, country: String? = nil) async -> HTTPReply {
        var body: [String: Any] = ["transactionServiceType": type]
        if let amount { body["requestedAmount"] = amount }
        if let country { body["countryCode"] = country }
        return await service.call("POST", "/terminal/v1/transactions/validate", bearer: token, body: body)
    }

    func terminalInfo() async -> HTTPReply { await service.call("GET", "/terminal/v1/terminal", bearer: token) }

    // MARK: Composites

    /// Every transaction of the terminal (`GET …/count` with no filter).
    func count(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Int {
        let reply = expectReply(await countReply(), 200, nil, "\(label) \(step): count", sourceLocation: sourceLocation)
        return reply.int("count") ?? -1
    }

    /// Taps `card` and sends the sale with it: the whole sale in one request.
    func pay(
        _ card: String, amount: Int, tip: Int? = nil, reference: String? = nil, pin: PinEntry = .correct,
        pinOnRequest: PinEntry = .correct, key: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> HTTPReply {
        let payload = try await tap(card, amount: amount, pin: pin, pinOnRequest: pinOnRequest, sourceLocation: sourceLocation)
        return await sale(amount: amount, tip: tip, reference: reference, payload: payload, key: key)
    }

    /// A cleared sale's id (fails the test when it does not clear).
    func cleared(
        _ card: String = "visa", amount: Int, tip: Int? = nil, reference: String? = nil, _ step: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let reply = expectTransaction(
            try await pay(card, amount: amount, tip: tip, reference: reference, sourceLocation: sourceLocation), 201, "CLEARED",
            responseCode: "00", "\(label) \(step)", sourceLocation: sourceLocation)
        return try #require(reply.transactionId, "\(label) \(step): no transactionId: \(reply)", sourceLocation: sourceLocation)
    }

    /// Runs `body` (a request that must fail) and expects `status` with one of `codes` and no new transaction.
    @discardableResult
    func refused(
        _ status: Int, oneOf codes: Set<String>, _ step: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> HTTPReply
    ) async rethrows -> HTTPReply {
        let before = await count("before \(step)", sourceLocation: sourceLocation)
        let reply = try await body()
        expectReply(reply, status, oneOf: codes, "\(label) \(step)", sourceLocation: sourceLocation)
        let after = await count("after \(step)", sourceLocation: sourceLocation)
        #expect(
            after == before, "\(label) \(step): the refused request left a transaction behind (count \(before) → \(after))",
            sourceLocation: sourceLocation)
        return reply
    }

    /// Runs `body` (a request that must fail) and expects `status`/`code` and no new transaction.
    @discardableResult
    func refused(
        _ status: Int, _ code: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> HTTPReply
    ) async rethrows -> HTTPReply {
        let before = await count("before \(step)", sourceLocation: sourceLocation)
        let reply = try await body()
        expectReply(reply, status, code, "\(label) \(step)", sourceLocation: sourceLocation)
        let after = await count("after \(step)", sourceLocation: sourceLocation)
        #expect(
            after == before, "\(label) \(step): the refused request left a transaction behind (count \(before) → \(after))",
            sourceLocation: sourceLocation)
        return reply
    }
}
