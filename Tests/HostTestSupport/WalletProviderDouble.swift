import Foundation
import SandboxHTTP
import SandboxWire
import Synchronization
import SandboxTestSupport
import WebhookSignature

/// A stand-in for the wallet simulator's provider API (docs/qr-payments.md, "Host and wallet"),
/// for tests of a host alone: it checks every request's `Wallet-Signature` with the region's
/// secret, makes orders (idempotent on `orderId`), closes them (`409 order_paid` once paid) and
/// takes refunds (202), and keeps what it was asked, so a test sees what the host sent.
///
/// For BLIK (docs/blik.md) it plays the bank's code book: a test issues codes
/// (``issueBlikCode(_:verification:)``), and `POST /provider/v1/blik/payments` spends one
/// atomically and makes its order (brand BLIK), or refuses it as the wallet does
/// (`blik_code_unknown`, `blik_code_used`, `blik_code_expired`, `blik_verification_failed`).
///
/// It never notifies by itself: a test plays the wallet with ``notification(_:)`` and posts it,
/// signed, to the host (``notify(_:host:)``).
///
/// ```swift
/// let wallet = try WalletProviderDouble(region: "EU")   // signs with EU's secret of wallet.json
/// let host = try InProcessHost(region: "EU", walletURL: wallet.url)
/// ```
public final class WalletProviderDouble: @unchecked Sendable {
    /// What the double was asked.
    public struct Log: Sendable {
        public var orders: [WalletProvider.OrderRequest] = []
        /// `(orderId, reason)` of each close.
        public var closes: [(order: String, reason: String)] = []
        public var refunds: [WalletProvider.RefundRequest] = []
        /// Every BLIK payment asked for, refused or not.
        public var blikPayments: [WalletBlik.PaymentRequest] = []
        /// Requests refused because their signature did not verify.
        public var unsigned = 0
    }

    public let region: String
    public let secret: String
    private let server: Server
    /// A BLIK code the double's bank issued: its verification code, and whether it is spent or expired.
    private struct BlikCode { var verification: String?; var used = false; var expired = false }
    private let state = Mutex<(log: Log, orders: [String: WalletProvider.Order], status: Int?, codes: [String: BlikCode])>(
        (Log(), [:], nil, [:]))

    public var url: String { "http://127.0.0.1:\(server.port)" }
    public var log: Log { state.withLock { $0.log } }

    /// The secret of `region` in the shipped `sandbox-data/wallet.json`, which the hosts sign with.
    public static func shippedSecret(_ region: String) throws -> String {
        let file = Paths.sandboxData.appendingPathComponent("wallet.json")
        guard let data = FileManager.default.contents(atPath: file.path),
            let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let secret = (root["secrets"] as? [String: Any])?[region] as? String
        else { throw HarnessError("\(file.path) has no secrets.\(region)") }
        return secret
    }

    /// Starts the double on a free port (or `port`, to come back where a stopped one was), with
    /// the region's shipped secret unless `secret` names another.
    public init(region: String, secret: String? = nil, port: UInt16 = 0) throws {
        let secret = try secret ?? Self.shippedSecret(region)
        self.region = region
        self.secret = secret
        let box = Box()
        var router = Router()
        router.post("/provider/v1/orders") { request in try box.double!.order(request) }
        router.get("/provider/v1/orders/{orderId}") { request in try box.double!.get(request) }
        router.post("/provider/v1/orders/{orderId}/close") { request in try box.double!.close(request) }
        router.post("/provider/v1/refunds") { request in try box.double!.refund(request) }
        router.post("/provider/v1/blik/payments") { request in try box.double!.blikPayment(request) }
        server = Server(name: "wallet-double", configuration: ServerConfiguration(port: port, drainSeconds: 0.1), responder: router)
        box.double = self
        try server.start()
    }

    private final class Box: @unchecked Sendable { weak var double: WalletProviderDouble? }

    public func stop() { server.stop() }

    /// From now on every provider call answers `status` with an error envelope (nil: normal again).
    public func answerEverything(with status: Int?) { state.withLock { $0.status = status } }

    /// Marks an order paid at the wallet (a close is then refused with `409 order_paid`).
    public func markPaid(_ order: String) {
        state.withLock { $0.orders[order]?.status = .paid }
    }

    /// The bank issues `code` (with `verification` for a 9-digit one): it pays once.
    public func issueBlikCode(_ code: String, verification: String? = nil) {
        state.withLock { $0.codes[code] = BlikCode(verification: verification) }
    }

    /// Runs `action` when a BLIK payment's code is spent, before the double answers the host: a
    /// notification or a cancel that overtakes the wallet's answer (nil: none).
    public func beforeBlikAnswer(_ action: (@Sendable (WalletBlik.PaymentRequest) -> Void)?) {
        hook.withLock { $0 = action }
    }
    private let hook = Mutex<(@Sendable (WalletBlik.PaymentRequest) -> Void)?>(nil)

    /// The code lived its 120 seconds (the wallet's clock is not the host's: the test says so).
    public func expireBlikCode(_ code: String) {
        state.withLock { $0.codes[code]?.expired = true }
    }

    // MARK: - Provider API

    private func verified(_ request: Request) throws {
        if let status = state.withLock({ $0.status }) {
            throw HTTPError(status: status, code: .injectedFault, message: "The double answers \(status).")
        }
        let headers = ["MONEI-Signature": request.header(WalletProvider.signatureHeader) ?? ""]
        guard request.header(WalletProvider.regionHeader) == region,
            (try? WebhookVerifier.verify(scheme: .monei, headers: headers, body: request.body, secret: secret)) != nil
        else {
            state.withLock { $0.log.unsigned += 1 }
            throw HTTPError(status: 401, code: .providerSignatureInvalid, message: "Wallet-Signature does not verify.")
        }
    }

    private func order(_ request: Request) throws -> Response {
        try verified(request)
        let asked = try request.decode(WalletProvider.OrderRequest.self)
        let order = state.withLock { state -> WalletProvider.Order in
            state.log.orders.append(asked)
            if let made = state.orders[asked.orderId] { return made }
            let now = Date()
            let made = WalletProvider.Order(
                orderId: asked.orderId, region: asked.region, merchantId: asked.merchantId, merchantName: asked.merchantName,
                terminalId: asked.terminalId, amount: asked.amount, currency: asked.currency, brand: asked.brand,
                brandFullName: asked.brandFullName, reference: asked.reference, status: .pending,
                payUrl: "\(url)/pay/\(asked.orderId)", createdAt: now, expiresAt: now.addingTimeInterval(Double(asked.expiresInSeconds)))
            state.orders[asked.orderId] = made
            return made
        }
        return .json(order, status: 201)
    }

    private func blikPayment(_ request: Request) throws -> Response {
        try verified(request)
        let asked = try request.decode(WalletBlik.PaymentRequest.self)
        let order = try state.withLock { state -> WalletProvider.Order in
            state.log.blikPayments.append(asked)
            if let made = state.orders[asked.paymentId] { return made }
            guard var code = state.codes[asked.payCode] else {
                throw HTTPError(status: 404, code: .blikCodeUnknown, message: "No bank app issued that code.", field: "payCode")
            }
            if code.expired { throw HTTPError(status: 410, code: .blikCodeExpired, message: "The code expired.", field: "payCode") }
            if code.used { throw HTTPError(status: 409, code: .blikCodeUsed, message: "The code was used already.", field: "payCode") }
            guard code.verification == asked.verificationCode else {
                throw HTTPError(
                    status: 403, code: .blikVerificationFailed, message: "The verification code does not match.", field: "verificationCode")
            }
            code.used = true
            state.codes[asked.payCode] = code
            let now = Date()
            let made = WalletProvider.Order(
                orderId: asked.paymentId, region: asked.region, merchantId: asked.merchantId, merchantName: asked.merchantName,
                terminalId: asked.terminalId, amount: asked.amount, currency: asked.currency, brand: "BLIK", brandFullName: "BLIK",
                reference: asked.reference, status: .pending, payUrl: "\(url)/bank", createdAt: now,
                expiresAt: now.addingTimeInterval(Double(asked.expiresInSeconds)))
            state.orders[asked.paymentId] = made
            return made
        }
        hook.withLock { $0 }?(asked)
        return .json(order, status: 201)
    }

    private func get(_ request: Request) throws -> Response {
        try verified(request)
        guard let order = state.withLock({ $0.orders[request.parameter("orderId")] }) else {
            throw HTTPError(status: 404, code: .orderNotFound, message: "No such order.")
        }
        return .json(order)
    }

    private func close(_ request: Request) throws -> Response {
        try verified(request)
        let reason = try request.decode(WalletProvider.CloseRequest.self).reason
        let id = request.parameter("orderId")
        return try state.withLock { state in
            state.log.closes.append((id, reason))
            guard var order = state.orders[id] else { throw HTTPError(status: 404, code: .orderNotFound, message: "No such order.") }
            if order.status == .paid { throw HTTPError(status: 409, code: .orderPaid, message: "The order was paid.") }
            order.status = .closed
            order.reason = reason
            state.orders[id] = order
            return .json(order)
        }
    }

    private func refund(_ request: Request) throws -> Response {
        try verified(request)
        let asked = try request.decode(WalletProvider.RefundRequest.self)
        state.withLock { $0.log.refunds.append(asked) }
        return .json(["refundId": asked.refundId], status: 202)
    }

    // MARK: - Notifications

    /// A notification of `type` about `order` (a fresh id unless given).
    public func notification(
        _ type: WalletProvider.NotificationType, order: String, refund: String? = nil, paymentId: String? = nil, reason: String? = nil,
        id: String = "ntf_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    ) -> WalletProvider.Notification {
        WalletProvider.Notification(id: id, type: type, orderId: order, refundId: refund, paymentId: paymentId, reason: reason)
    }

    /// The signed headers and body the wallet posts, signed with `secret` (the region's by default)
    /// for `region` (this double's by default) at `timestamp` (now by default).
    public func signed(
        _ notification: WalletProvider.Notification, secret: String? = nil, region: String? = nil, timestamp: Int? = nil
    ) throws -> (body: String, headers: [(String, String)]) {
        let body = try JSON.encode(notification)
        let signedAt = timestamp ?? Int(Date().timeIntervalSince1970)
        let value = try WebhookSigner.headers(scheme: .monei, id: "", timestamp: signedAt, body: body, secret: secret ?? self.secret)[0].value
        return (
            String(decoding: body, as: UTF8.self),
            [(WalletProvider.signatureHeader, value), (WalletProvider.regionHeader, region ?? self.region)]
        )
    }

    /// Posts `notification`, signed, to the host's `POST /provider/v1/notifications`.
    public func notify(_ notification: WalletProvider.Notification, host: Service) async throws -> HTTPReply {
        let (body, headers) = try signed(notification)
        return await host.call("POST", "/provider/v1/notifications", raw: body, headers: headers)
    }

    /// ``notify(_:host:)`` from a thread that is not a task's (the race tests).
    public func notifyNow(_ notification: WalletProvider.Notification, host: Service) throws -> HTTPReply {
        let (body, headers) = try signed(notification)
        return host.call("POST", "/provider/v1/notifications", raw: body, headers: headers)
    }
}
