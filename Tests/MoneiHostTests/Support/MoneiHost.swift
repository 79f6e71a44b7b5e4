import CardPayload
import Foundation
import HostTestSupport
import SandboxCore
import SandboxHTTPClient
import SimulatedReader
import SandboxTestSupport
import Testing

let cardCatalogue: CardCatalogue? = try? CardCatalogue.load(from: Paths.sandboxData.appendingPathComponent("cards.json"))

/// The MONEI region's host in this process, with its accounts' API keys, what a merchant's backend
/// calls with them and what a device calls with a POS token.
final class MoneiHost: Sendable {
    static let account1 = "MONEI-M01"
    static let account2 = "MONEI-M02"
    /// The stores of sandbox-data/monei.json.
    static let centro = "store_giralda_centro"
    static let triana = "store_giralda_triana"
    static let gracia = "store_nautilus_gracia"

    let host: InProcessHost
    let key1: String
    let key2: String

    var api: Service { host.service }

    /// The host, its sandbox clock standing still at its start unless `clock` says otherwise: a read
    /// sealed at the host's time stays fresh however long a loaded machine takes between two calls
    /// (the 120 s rule is tested by moving the clock).
    init(
        flavour: Flavour = .sandbox, resolver: PublicAddress.Resolver? = nil, clock: SandboxClock? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let start = Date()
        host = try InProcessHost(
            region: "MONEI", flavour: flavour, resolver: resolver, clock: clock ?? .standingStill(at: start), sourceLocation: sourceLocation)
        let fixtures = try MerchantsFile.load(sourceLocation: sourceLocation).region("MONEI", sourceLocation: sourceLocation)
        key1 = try #require(fixtures.merchants.first { $0.id == Self.account1 }?.apiKey, sourceLocation: sourceLocation)
        key2 = try #require(fixtures.merchants.first { $0.id == Self.account2 }?.apiKey, sourceLocation: sourceLocation)
    }

    func stop() { host.stop() }

    // MARK: The merchant's backend

    /// `POST /v1/pos/auth-token` with `Authorization: <key>`.
    func authToken(key: String?, _ body: [String: Any]? = nil) async -> HTTPReply {
        await api.call("POST", "/v1/pos/auth-token", authorization: key, body: body)
    }

    /// A fresh POS token of the first account (or `key`'s), for `body`'s store and point of sale.
    func token(key: String? = nil, _ body: [String: Any]? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let reply = await authToken(key: key ?? key1, body)
        expectReply(reply, 200, nil, "auth token", sourceLocation: sourceLocation)
        return try #require(reply.string("token"), "\(reply)", sourceLocation: sourceLocation)
    }

    func payment(_ id: String, key: String? = nil) async -> HTTPReply {
        await api.call("GET", "/v1/payments/\(id)", authorization: key ?? key1)
    }

    func refund(_ id: String, key: String? = nil, _ body: [String: Any]? = nil) async -> HTTPReply {
        await api.call("POST", "/v1/payments/\(id)/refund", authorization: key ?? key1, body: body)
    }

    // MARK: The device

    func prepare(_ token: String) async -> HTTPReply {
        await api.call("POST", "/v1/pos/prepare", bearer: token)
    }

    /// A card read of `card` (cards.json) sealed for the token's point of sale, dated at the host's time.
    func seal(_ card: String, token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let prepared = await prepare(token)
        expectReply(prepared, 200, nil, "prepare", sourceLocation: sourceLocation)
        let reader = try #require(prepared["reader"] as? [String: Any], "\(prepared)", sourceLocation: sourceLocation)
        let key = Array(try #require(Data(base64Encoded: reader["readerKey"] as? String ?? ""), sourceLocation: sourceLocation))
        let serverTime = try #require((reader["serverTimeUnix"] as? NSNumber)?.doubleValue, sourceLocation: sourceLocation)
        let pointOfSale = try #require(prepared.string("pointOfSaleId"), sourceLocation: sourceLocation)
        let catalogue = try #require(cardCatalogue, "sandbox-data/cards.json does not load", sourceLocation: sourceLocation)
        let testCard = try #require(catalogue.card(named: card), "cards.json has no \(card)", sourceLocation: sourceLocation)
        let readId = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let payload = CardPayload(readId: readId, readAt: Int64((serverTime * 1000).rounded(.down)), card: testCard.cardData)
        return try PayloadSealer.seal(payload, key: key, region: "MONEI", terminalId: pointOfSale)
    }

    /// `POST /v1/pos/payments`: `card` tapped for `amount` cents.
    func pay(
        token: String, amount: Int, orderId: String = "order-\(UUID().uuidString.prefix(8))", card: String = "visa-es",
        callbackUrl: String? = nil, extra: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> HTTPReply {
        var body: [String: Any] = ["amount": amount, "orderId": orderId, "card": try await seal(card, token: token, sourceLocation: sourceLocation)]
        if let callbackUrl { body["callbackUrl"] = callbackUrl }
        body.merge(extra) { $1 }
        return await api.call("POST", "/v1/pos/payments", bearer: token, body: body)
    }

    /// An approved payment's id.
    func succeeded(
        token: String, amount: Int = 1050, callbackUrl: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let reply = try await pay(token: token, amount: amount, callbackUrl: callbackUrl, sourceLocation: sourceLocation)
        expectReply(reply, 200, nil, "payment", sourceLocation: sourceLocation)
        #expect(reply.string("status") == "SUCCEEDED", "\(reply)", sourceLocation: sourceLocation)
        return try #require(reply.string("id"), sourceLocation: sourceLocation)
    }
}

/// Expects MONEI's error body: `status` (the reason phrase), `statusCode`, a message, the request's
/// id as `requestId`, and the sandbox's `code`.
func expectMoneiError(
    _ reply: HTTPReply, _ status: Int, code: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(reply.status == status, "\(step): \(reply)", sourceLocation: sourceLocation)
    #expect(reply.int("statusCode") == status, "\(step): \(reply)", sourceLocation: sourceLocation)
    #expect(reply.string("status")?.isEmpty == false, "\(step): \(reply)", sourceLocation: sourceLocation)
    #expect(reply.string("message")?.isEmpty == false, "\(step): \(reply)", sourceLocation: sourceLocation)
    #expect(reply.string("requestId") == reply.header("X-Request-Id"), "\(step): \(reply)", sourceLocation: sourceLocation)
    #expect(reply.string("code") == code, "\(step): \(reply)", sourceLocation: sourceLocation)
    #expect(reply["error"] == nil, "\(step): not the sandbox envelope: \(reply)", sourceLocation: sourceLocation)
}
