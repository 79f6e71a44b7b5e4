import CardPayload
import Foundation
import SimulatedReader
import SandboxTestSupport
import Testing

/// The test cards of `sandbox-data/cards.json`.
let cardCatalogue: CardCatalogue? = try? CardCatalogue.load(from: Paths.sandboxData.appendingPathComponent("cards.json"))

/// A phone registered on one terminal by portal activation, logged in, sealing card reads with
/// the reader key of `POST /terminal/v1/reader/prepare` (readAt on the host's clock, so moving
/// the sandbox clock needs no extra care).
final class Device: @unchecked Sendable {
    static let pin = "24680"

    let api: Service
    let terminalId: String
    let region: String
    let currency: String
    let autoLogin: Bool
    let deviceId: String
    let secret: String
    private(set) var token = ""
    let label: String

    private init(api: Service, terminalId: String, region: String, currency: String, autoLogin: Bool, deviceId: String, secret: String) {
        self.api = api
        self.terminalId = terminalId
        self.region = region
        self.currency = currency
        self.autoLogin = autoLogin
        self.deviceId = deviceId
        self.secret = secret
        label = "[\(terminalId)]"
    }

    /// Registers a fresh device on `terminal` of `region` (portal activation confirmed in the back
    /// office) and logs in.
    static func open(
        _ api: Service, backOfficeKey: String, terminal: String, region: String = EU.region, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Device {
        let device = "wh-\(terminal)-\(UUID().uuidString.lowercased())"
        let step = "[\(terminal)] register a device"
        let credential = try await api.portalRegistration(
            device, terminal: terminal, backOfficeKey: backOfficeKey, pin: Self.pin, step, sourceLocation: sourceLocation)
        let secret = credential.secret
        let facts = try RegionFacts.load(region, sourceLocation: sourceLocation)
        let opened = Device(
            api: api, terminalId: terminal, region: region, currency: facts.currency, autoLogin: EU.autoLogin(terminal, region: region),
            deviceId: device, secret: secret)
        try await opened.login(sourceLocation: sourceLocation)
        return opened
    }

    /// Logs in (again: after the clock moved past the session's end).
    func login(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var body: [String: Any] = ["deviceId": deviceId, "deviceSecret": secret]
        if !autoLogin { body["pin"] = Self.pin }
        let reply = expectReply(
            await api.call("POST", "/terminal/v1/sessions", body: body), 201, nil, "\(label) log in", sourceLocation: sourceLocation)
        token = try #require(reply.string("sessionToken"), "\(label) login: \(reply)", sourceLocation: sourceLocation)
    }

    /// Why a quiet call (one that records no issue) failed.
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// A card read of `card` sealed for this terminal, dated at the host's current time.
    ///
    /// - Parameter quietly: throw ``Failed`` instead of recording an issue (a host about to be killed).
    func seal(_ card: String, quietly: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        var prepared = await api.call("POST", "/terminal/v1/reader/prepare", bearer: token)
        if prepared.status == 401 && !quietly {
            // The sandbox clock moved past the session's end.
            try await login(sourceLocation: sourceLocation)
            prepared = await api.call("POST", "/terminal/v1/reader/prepare", bearer: token)
        }
        if quietly && prepared.status != 200 { throw Failed(description: "\(prepared)") }
        expectReply(prepared, 200, nil, "\(label) reader prepare", sourceLocation: sourceLocation)
        let keyText = try #require(prepared.string("readerKey"), "\(label) prepare: \(prepared)", sourceLocation: sourceLocation)
        let key = Array(try #require(Data(base64Encoded: keyText), "\(label) readerKey is not base64", sourceLocation: sourceLocation))
        let serverTime = try #require(
            (prepared["serverTimeUnix"] as? NSNumber)?.doubleValue, "\(label) prepare gives no serverTimeUnix: \(prepared)",
            sourceLocation: sourceLocation)
        let catalogue = try #require(cardCatalogue, "sandbox-data/cards.json does not load", sourceLocation: sourceLocation)
        let testCard = try #require(catalogue.card(named: card), "cards.json has no \(card)", sourceLocation: sourceLocation)
        let readId = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let payload = CardPayload(readId: readId, readAt: Int64((serverTime * 1000).rounded(.down)), card: testCard.cardData)
        return try PayloadSealer.seal(payload, key: key, region: region, terminalId: terminalId)
    }

    // MARK: Terminal API

    func sale(
        _ amount: Int, card: String = "visa", callbackUrl: String? = nil, reference: String? = nil, quietly: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> HTTPReply {
        var body: [String: Any] = [
            "currency": currency, "requestedAmount": amount,
            "cardPayload": try await seal(card, quietly: quietly, sourceLocation: sourceLocation),
        ]
        if let callbackUrl { body["callbackUrl"] = callbackUrl }
        if let reference { body["reference"] = reference }
        return await api.call("POST", "/terminal/v1/transactions/sale", bearer: token, body: body)
    }

    /// `POST /terminal/v1/apm/qr/payments`: an order made at the wallet, waiting for the customer.
    func qrPayment(_ amount: Int, brand: String = "ALIPAY", reference: String? = nil) async -> HTTPReply {
        var body: [String: Any] = ["requestedAmount": amount, "brand": brand]
        if let reference { body["reference"] = reference }
        return await api.call("POST", "/terminal/v1/apm/qr/payments", bearer: token, body: body)
    }

    /// `POST /terminal/v1/apm/blik/payments` with the code of the customer's bank app.
    func blikPayment(_ amount: Int, code: String, reference: String? = nil) async -> HTTPReply {
        var body: [String: Any] = ["requestedAmount": amount, "payCode": code]
        if let reference { body["reference"] = reference }
        return await api.call("POST", "/terminal/v1/apm/blik/payments", bearer: token, body: body)
    }

    /// `GET /terminal/v1/apm/transactions/{id}`: the APM payment as it is now.
    func apmPayment(_ transaction: String) async -> HTTPReply {
        await api.call("GET", "/terminal/v1/apm/transactions/\(transaction)", bearer: token)
    }

    /// A sale that must clear; its transaction id.
    func clearedSale(
        _ amount: Int, card: String = "visa", callbackUrl: String? = nil, reference: String? = nil, _ step: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let reply = try await sale(amount, card: card, callbackUrl: callbackUrl, reference: reference, sourceLocation: sourceLocation)
        expectReply(reply, 201, nil, "\(label) \(step)", sourceLocation: sourceLocation)
        #expect(reply.string("transactionStatus") == "CLEARED", "\(label) \(step): \(reply)", sourceLocation: sourceLocation)
        return try #require(reply.string("transactionId"), "\(label) \(step): \(reply)", sourceLocation: sourceLocation)
    }

    func refund(_ original: String, amount: Int, card: String = "visa", sourceLocation: SourceLocation = #_sourceLocation) async throws -> HTTPReply {
        let body: [String: Any] = [
            "currency": currency, "requestedAmount": amount, "transactionId": original,
            "cardPayload": try await seal(card, sourceLocation: sourceLocation),
        ]
        return await api.call("POST", "/terminal/v1/transactions/refund", bearer: token, body: body)
    }

    func reversal(_ transaction: String, byUser: Bool = false) async -> HTTPReply {
        await api.call("POST", "/terminal/v1/transactions/\(transaction)/reversal", bearer: token, body: ["isCancelledByUser": byUser])
    }

    func dcc(_ transaction: String, accepted: Bool) async -> HTTPReply {
        await api.call("POST", "/terminal/v1/transactions/\(transaction)/dcc", bearer: token, body: ["dccOfferAccepted": accepted])
    }

    func readerOutcome(_ amount: Int, _ outcome: String) async -> HTTPReply {
        await api.call(
            "POST", "/terminal/v1/transactions/sale", bearer: token,
            body: ["currency": currency, "requestedAmount": amount, "readerOutcome": outcome])
    }

    /// A sale without card: NEW, waiting for the card (in flight).
    func saleWithoutCard(_ amount: Int) async -> HTTPReply {
        await api.call("POST", "/terminal/v1/transactions/sale", bearer: token, body: ["currency": currency, "requestedAmount": amount])
    }

    /// `POST /terminal/v1/unregister` with the device's own credential.
    func unregister() async -> HTTPReply {
        await api.call("POST", "/terminal/v1/unregister", body: ["deviceId": deviceId, "deviceSecret": secret])
    }

    /// Every transaction of the terminal.
    func count(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Int {
        let reply = expectReply(
            await api.call("GET", "/terminal/v1/transactions/count", bearer: token), 200, nil, "\(label) \(step): count",
            sourceLocation: sourceLocation)
        return reply.int("count") ?? -1
    }
}
