import HostRules
import HostStorage
import SandboxCore
import SandboxHTTP
import SandboxWire

/// Geopagos' reader tokens on a Geopagos region's host (docs/geopagos.md): the merchant's backend
/// buys one with its API key, the device trades it for a session of the terminal API, on which it
/// then pays, refunds and cancels as every device does. A host of another vendor (`tokens` nil)
/// answers them 404 `not_found`, as a path it does not have.
extension EnvironmentHost {
    static func addGeopagosRoutes(to router: inout Router, _ lifecycle: Lifecycle, _ tokens: ReaderTokens?) {
        router.group("/merchant/v1", middleware: merchantKey(lifecycle)) { merchantAPI in
            merchantAPI.post("/reader-tokens") { request, merchant in
                guard let tokens else { throw HTTPError.notFound }
                // Every field is optional: a backend may send no body at all.
                let body = request.body.isEmpty ? ReaderTokenRequest() : try request.decode(ReaderTokenRequest.self)
                _ = try body.terminalId.map { try Validate.identifier($0, field: "terminalId") }
                return .json(try tokens.issue(merchant: merchant.id, body), status: 201)
            }
        }
        router.post("/terminal/v1/reader-sessions") { request in
            guard let tokens else { throw HTTPError.notFound }
            let body = try request.decode(ReaderSessionRequest.self)
            return .json(
                try tokens.session(body, device: try Validate.deviceID(body.deviceId), model: try Validate.deviceModel(body.deviceModel)),
                status: 201)
        }
    }
}
