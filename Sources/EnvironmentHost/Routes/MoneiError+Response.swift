import HostRules
import HostStorage
import SandboxHTTP
import SandboxWire

/// MONEI's error body on the wire: what the MONEI routes answer for any error their handlers throw.
extension MoneiError: HTTPResponseError {
    /// The MONEI form of any error a MONEI handler threw; anything that knows no status is a 500
    /// that says nothing more.
    init(_ error: any Error, request: Request) {
        switch error {
        case let error as MoneiError:
            self = error
        case let error as any ServiceError:
            // The sandbox names the sealed card `cardPayload`; MONEI's device call names it `card`.
            let field = error.field == "cardPayload" ? "card" : error.field
            self.init(status: error.status, code: error.code, message: error.message, field: field)
            headers = error.headers
        default:
            self.init(status: 500, code: .internalError, message: "Internal server error.")
        }
        requestId = request.id
    }

    package var response: Response {
        var response = Response.json(
            MoneiBodies.Error(
                status: Self.reason(status), statusCode: status, message: message, requestId: requestId, code: code.rawValue, field: field),
            status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

}
