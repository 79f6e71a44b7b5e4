import Foundation
import SandboxHTTP
import SandboxWire

// The "Register a device" page: find the registration a device began by the challenge code it
// shows, then confirm it for a terminal, which gives the back-office code to type into the app.
extension PortalSimulator {
    /// The body of a confirmation: the terminal, or the merchant whose first free terminal it takes.
    struct ConfirmBody: Decodable {
        let merchantId: String?
        let terminalId: String?
    }

    static func addRegistrationRoutes(to router: inout Router, hosts: HostLinks) {
        router.get("/api/regions/{region}/registrations/{challengeCode}") { request in
            let host = try hosts.link(request.parameter("region"))
            let code = try challengeCode(request.parameter("challengeCode"))
            let answer = try host.send(.get, "/backoffice/v1/challenges/\(code)")
            if answer.errorCode == .challengeNotFound, let owner = hosts.owner(ofChallenge: code, except: host) {
                throw HTTPError(
                    status: 409, code: .challengeOtherRegion,
                    message: "This code was made on the \(owner) host, not \(host.environment.region): choose \(owner) in the region picker.",
                    field: "region")
            }
            return try answer.relayed(region: host.environment.region)
        }
        router.post("/api/regions/{region}/registrations/{challengeCode}/confirm") { request in
            let host = try hosts.link(request.parameter("region"))
            let code = try challengeCode(request.parameter("challengeCode"))
            let body = try request.decode(ConfirmBody.self)
            let forward = BackOfficeBodies.Confirm(
                challengeCode: code, terminalId: try body.terminalId.map { try identifier($0, field: "terminalId") },
                merchantId: try body.merchantId.map { try identifier($0, field: "merchantId") })
            guard forward.terminalId != nil || forward.merchantId != nil else {
                throw HTTPError.badRequest("Choose a terminal or a merchant.", code: .invalidRequest, field: "terminalId")
            }
            return try host.send(.post, "/backoffice/v1/challenges/confirm", body: try JSON.encode(forward))
                .relayed(region: host.environment.region)
        }
    }

    /// A challenge code as a person types it (any case, dash or not), in the host's form `ABCD-EF12`.
    static func challengeCode(_ text: String) throws(HTTPError) -> String {
        let plain = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard plain.count == 8, plain.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw HTTPError.badRequest(
                "A challenge code has 8 letters and digits, as the app shows it (ABCD-EF12).", code: .invalidRequest,
                field: "challengeCode")
        }
        return String(plain.prefix(4)) + "-" + String(plain.suffix(4))
    }

    /// A terminal or merchant id: plain enough to stand in a host's path.
    static func identifier(_ value: String, field: String) throws(HTTPError) -> String {
        guard PlainIdentifier.isValid(value) else { throw HTTPError.badRequest("\(field) must be 1 to 64 letters, digits, '.', '_' or '-'.", code: .invalidRequest, field: field) }
        return value
    }
}
