import HostRules
import SandboxHTTP

extension PaymentAnswer {
    /// The answer on the wire: JSON with its status; a replayed one says so (`Idempotent-Replayed: true`).
    var response: Response {
        switch self {
        case .fresh(let value, let status):
            return Response.json(value, status: status)
        case .stored(let status, let body, let replayed):
            var response = Response.json(bytes: body, status: status)
            if replayed { response.headers.append(("Idempotent-Replayed", "true")) }
            return response
        }
    }
}

extension EnvironmentHost {
    /// A payment operation's answers, sent through the router's `reply` as responses.
    static func answering(_ reply: @escaping Reply) -> Answered<PaymentAnswer> {
        { answer in reply { answer().map(\.response) } }
    }
}
