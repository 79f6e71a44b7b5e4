import SandboxTime
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxWire
import Synchronization
import WebhookSignature

/// The webhook inbox of `sandbox up`: the receiver every fixture merchant points at, so a tester
/// sees the events the hosts send, each checked against its signature.
///
/// A host posts to `/hooks/<REGION>/<merchantId>`; the inbox answers 200, keeps the newest 500
/// deliveries in memory and lists them at `GET /api/events` and on its page (`web/inbox/`).
public final class WebhookInbox: RunningService, Responder {
    public struct Configuration: Sendable {
        public var server: ServerConfiguration
        public var webRoot: URL
        public var openAPIFile: URL
        /// Region id → merchant id → the key its MONEI signatures use (the merchant's API key).
        public var signingKeys: [String: [String: String]]
        /// Real time: hosts sign with it whatever their sandbox clocks say, so a signature's
        /// timestamp is checked against it, as any receiver checks against its own clock. It also
        /// dates each delivery's `receivedAt`.
        public var clock: any TimeSource
        public var accessLog: AccessLog?
        /// Folder of the sandbox's named snapshots (the inbox keeps `inbox.json` in each); nil: no snapshots.
        public var snapshotDirectory: URL?

        public init(
            server: ServerConfiguration, webRoot: URL, openAPIFile: URL, signingKeys: [String: [String: String]],
            clock: any TimeSource = WallClock(), accessLog: AccessLog? = nil, snapshotDirectory: URL? = nil
        ) {
            self.snapshotDirectory = snapshotDirectory
            self.server = server
            self.webRoot = webRoot
            self.openAPIFile = openAPIFile
            self.signingKeys = signingKeys
            self.clock = clock
            self.accessLog = accessLog
        }
    }

    /// One delivery as the inbox received it.
    public typealias Delivery = InboxDelivery

    public let name = "webhooks"
    public let server: Server
    private let front: any Responder
    private let deliveries = Mutex<[Delivery]>([])
    static let capacity = 500

    public init(configuration: Configuration) throws {
        var router = Router()
        let keys = configuration.signingKeys
        let clock = configuration.clock
        // Filled in below once `self` exists; the closures reach the store through this box.
        let box = Box()
        router.get("/healthz") { _ in .json(["status": "ok", "service": "webhooks"]) }
        router.post("/hooks/{region}/{merchantId}") { request in
            let region = request.parameter("region")
            let merchant = request.parameter("merchantId")
            guard let key = keys[region]?[merchant] else {
                throw HTTPError(status: 404, code: .unknownMerchant, message: "The inbox receives for fixture merchants only.")
            }
            let signature: String
            if request.header("monei-signature") != nil {
                do {
                    try WebhookVerifier.verify(
                        scheme: .monei, headers: request.headers, body: request.body, secret: key, tolerance: 300,
                        now: Int(clock.now().timeIntervalSince1970))
                    signature = "valid"
                } catch {
                    signature = "\(error)"
                }
            } else if request.header("webhook-signature") != nil {
                signature = "not checked (Standard Webhooks: the secret is the host's)"
            } else {
                signature = "missing"
            }
            struct Event: Decodable { let id: String?; let type: String? }
            let event = try? JSONDecoder().decode(Event.self, from: Data(request.body))
            let delivery = Delivery(
                receivedAt: WireTime.string(from: clock.now()), region: region, merchantId: merchant,
                eventId: event?.id, type: event?.type, signature: signature,
                headers: request.headers.filter { $0.key.hasPrefix("monei-") || $0.key.hasPrefix("webhook-") || $0.key == "content-type" },
                body: String(decoding: request.body, as: UTF8.self))
            box.inbox?.deliveries.withLock { list in
                list.append(delivery)
                if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
            }
            return .json(["received": true])
        }
        router.get("/api/events") { _ in
            .json(["events": Array((box.inbox?.deliveries.withLock { $0 } ?? []).reversed())])
        }
        router.delete("/api/events") { _ in
            box.inbox?.deliveries.withLock { $0.removeAll() }
            return Response(status: 204)
        }
        let gate = RequestGate()
        if let folder = configuration.snapshotDirectory {
            let shelf = SnapshotShelf(folder: folder, file: "inbox.json")
            router.addSnapshotRoutes(
                shelf: shelf, gate: gate,
                save: { name in
                    let kept = try JSONEncoder().encode(box.inbox?.deliveries.withLock { $0 } ?? [])
                    return try shelf.save(name) { url in try kept.write(to: url) }
                },
                restore: { name in
                    let kept: [Delivery]
                    do {
                        kept = try JSONDecoder().decode([Delivery].self, from: Data(contentsOf: shelf.location(of: name)))
                    } catch {
                        throw HTTPError(status: 409, code: .snapshotMismatch, message: "Snapshot '\(name)' holds no inbox this inbox can read: nothing was restored.")
                    }
                    box.inbox?.deliveries.withLock { $0 = Array(kept.suffix(Self.capacity)) }
                })
        }
        try router.serveOpenAPI(configuration.openAPIFile)
        router.fallback = StaticFiles(root: configuration.webRoot)
        front = gate.guarding(router)
        server = Server(name: "webhooks", configuration: configuration.server, responder: front, accessLog: configuration.accessLog)
        box.inbox = self
    }

    /// A late-bound, weak reference from the routes to the inbox that owns them.
    private final class Box: @unchecked Sendable {
        weak var inbox: WebhookInbox?
    }

    public static func start(configuration: Configuration) throws -> WebhookInbox {
        let inbox = try WebhookInbox(configuration: configuration)
        try inbox.server.start()
        return inbox
    }

    public func respond(to request: Request) -> Response { front.respond(to: request) }

    /// The URL a merchant's host posts to.
    public func hookURL(region: String, merchant: String) -> String {
        Self.hookURL(base: url, region: region, merchant: merchant)
    }

    /// The URL a merchant's host posts to, for an inbox at `base` (which may run in another process).
    public static func hookURL(base: String, region: String, merchant: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/hooks/" + region + "/" + merchant
    }
}
