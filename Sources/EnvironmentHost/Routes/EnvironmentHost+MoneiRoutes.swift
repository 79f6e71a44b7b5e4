import HostRules
import HostStorage
import SandboxCore
import SandboxHTTP
import SandboxWire

/// MONEI's REST API on a MONEI region's host (openapi/monei.yaml, docs/monei.md): what a merchant's
/// backend calls with its API key (`Authorization: <API key>`, no scheme word, as MONEI's clients
/// send it) and what the device calls with a POS token (`Authorization: Bearer <token>`).
///
/// Every answer of these routes, refusals of the middleware and bad JSON included, carries MONEI's
/// error body (``MoneiError``), never the sandbox envelope.
extension EnvironmentHost {
    static func addMoneiRoutes(to router: inout Router, _ monei: MoneiPayments) {
        let apiKey = Middleware<Merchant> { request in
            try moneiAnswer(request) { try monei.account(apiKey: request.header("authorization")) }
        }
        let posToken = Middleware<PosTokens.Claims> { request in
            try moneiAnswer(request) { try monei.pointOfSale(bearer: bearer(request)) }
        }
        @Sendable func id(_ request: Request) -> String { request.parameter("id") }

        router.group("/v1", middleware: apiKey) { api in
            api.post("/pos/auth-token") { request, account in
                try moneiAnswer(request) {
                    // MONEI's clients send no body when neither id is given.
                    let body = request.body.isEmpty ? MoneiBodies.AuthTokenRequest() : try request.decode(MoneiBodies.AuthTokenRequest.self)
                    return .json(try monei.authToken(account, body))
                }
            }
            api.get("/payments/{id}") { request, account in
                try moneiAnswer(request) { .json(try monei.payment(id(request), account: account)) }
            }
            api.post("/payments/{id}/refund", deferred: { request, account, reply in
                try moneiDeferred(request, reply) { reply in
                    let body = request.body.isEmpty ? MoneiBodies.RefundRequest() : try request.decode(MoneiBodies.RefundRequest.self)
                    try monei.refund(id(request), account: account, body, reply: reply)
                }
            })
        }
        // Sandbox control: a tap of a test card for a POS token, for scripts that have no device
        // library (docs/monei.md); open as the rest of /_sandbox.
        router.post("/_sandbox/monei/card-read") { request in
            struct Body: Decodable { let token: String; let card: String? }
            return try moneiAnswer(request) {
                let body = try request.decode(Body.self)
                let claims = try monei.pointOfSale(bearer: body.token)
                return .json(["card": try monei.cardRead(claims, card: body.card ?? "visa-es")])
            }
        }
        // A path under MONEI's prefixes that no route has is MONEI's 404 too (an empty payment id),
        // and a method its route does not take MONEI's 405.
        router.fallback = MoneiNotFound()
        router.methodNotAllowed = { request, error in
            guard MoneiNotFound.isMonei(request.path) else { return error.response }
            return MoneiError(error, request: request).response
        }
        router.group("/v1/pos", middleware: posToken) { pos in
            pos.post("/prepare") { request, claims in
                try moneiAnswer(request) { .json(monei.prepare(claims)) }
            }
            pos.post("/payments", deferred: { request, claims, reply in
                try moneiDeferred(request, reply) { reply in
                    try monei.pay(claims, try request.decode(MoneiBodies.PaymentRequest.self), reply: reply)
                }
            })
        }
    }

    /// The 404 of paths no route has: MONEI's body under `/v1/pos` and `/v1/payments`, the envelope elsewhere.
    struct MoneiNotFound: Responder {
        /// Whether `path` is under MONEI's prefixes (`/v1/pos`, `/v1/payments`).
        static func isMonei(_ path: String) -> Bool {
            path.hasPrefix("/v1/pos") || path.hasPrefix("/v1/payments")
        }

        func respond(to request: Request) -> Response {
            guard Self.isMonei(request.path) else { return HTTPError.notFound.response }
            var error = MoneiError(status: 404, code: .notFound, message: "No such path: \(request.path).")
            error.requestId = request.id
            return error.response
        }
    }

    /// Runs a MONEI handler; whatever it throws becomes MONEI's error body.
    static func moneiAnswer<T>(_ request: Request, _ body: () throws -> T) throws(MoneiError) -> T {
        do {
            return try body()
        } catch {
            throw MoneiError(error, request: request)
        }
    }

    /// Runs a deferred MONEI handler; what it throws, and a failure it answers later, become MONEI's error body.
    static func moneiDeferred(
        _ request: Request, _ reply: @escaping Reply, _ body: (@escaping Answered<MoneiPayment>) throws -> Void
    ) throws(MoneiError) {
        let answering: Answered<MoneiPayment> = { answer in
            reply { answer().map { Response.json($0) }.mapError { MoneiError($0, request: request) as any Error } }
        }
        try moneiAnswer(request) { try body(answering) }
    }
}
