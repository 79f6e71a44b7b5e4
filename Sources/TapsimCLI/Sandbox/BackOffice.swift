import DeviceTransport
import Foundation
import SandboxWire

/// The region's back-office API (docs/terminal-lifecycle.md), used the way the merchant portal
/// uses it: `register quick`, `register confirm` and `demo` confirm the device's challenge code
/// here, and `register issue` gets a registration token as a merchant's backend does.
///
/// ```swift
/// let backOffice = BackOffice(host: url, key: region.backOfficeKey)
/// let confirmed = try await backOffice.confirm(challengeCode: "ABCD-EFGH", terminalId: "EU-T0101")
/// ```
struct BackOffice: Sendable {
    /// An answer of the back office that is not a success, or no answer at all.
    struct Failure: Error, Sendable, CustomStringConvertible {
        /// HTTP status; nil when the host could not be reached.
        var status: Int?
        /// The error envelope's code (`terminal_in_use`, …), or `unreachable`.
        var code: String
        var message: String

        var description: String {
            "back office: \(code)\(status.map { " (HTTP \($0))" } ?? ""): \(message)"
        }
    }

    struct MerchantTerminal: Sendable {
        var terminalId: String
        var registered: Bool
        /// A valid registration token waits for it: it takes no challenge code meanwhile.
        var lockedByToken: Bool
    }

    var host: URL
    var key: String

    /// `POST /backoffice/v1/challenges/confirm` for a terminal: the back-office code for the device.
    func confirm(challengeCode: String, terminalId: String) async throws(Failure) -> ChallengeConfirmation {
        let body = BackOfficeBodies.Confirm(challengeCode: challengeCode, terminalId: terminalId, merchantId: nil)
        return try await call("POST", "/backoffice/v1/challenges/confirm", body: body, as: ChallengeConfirmation.self)
    }

    /// `POST /backoffice/v1/registration-tokens`: a one-time token for a terminal, as the merchant's
    /// backend gets one (optionally mailed to the back-office mailbox).
    func issueToken(terminalId: String, email: String?) async throws(Failure) -> IssuedRegistrationToken {
        try await call(
            "POST", "/backoffice/v1/registration-tokens", body: BackOfficeBodies.IssueToken(terminalId: terminalId, email: email),
            as: IssuedRegistrationToken.self)
    }

    /// `DELETE /backoffice/v1/registration-tokens/{token}`: the token is invalid from now on and its terminal free of it.
    func revokeToken(_ token: String) async throws(Failure) {
        _ = try await call("DELETE", "/backoffice/v1/registration-tokens/" + DeviceTransport.encode(token), body: nil, as: JSONClient.Empty.self)
    }

    /// `GET /backoffice/v1/merchants`, flattened to terminals.
    func terminals() async throws(Failure) -> [MerchantTerminal] {
        struct Merchants: Decodable, Sendable {
            struct Merchant: Decodable, Sendable { var terminals: [Terminal] }
            struct Terminal: Decodable, Sendable {
                var terminalId: String
                var registered: Bool?
                var tokenLockedUntil: String?
            }
            var merchants: [Merchant]
        }
        let answer = try await call("GET", "/backoffice/v1/merchants", body: nil, as: Merchants.self)
        return answer.merchants.flatMap(\.terminals).map { terminal in
            MerchantTerminal(terminalId: terminal.terminalId, registered: terminal.registered ?? false, lockedByToken: terminal.tokenLockedUntil != nil)
        }
    }

    /// One call with the back-office key, over the SDK's JSON client (libcurl on Linux, URLSession
    /// on Apple platforms), as every device call.
    private func call<Answer: Decodable & Sendable>(
        _ method: String, _ path: String, body: (any Encodable)?, as type: Answer.Type
    ) async throws(Failure) -> Answer {
        switch await JSONClient(baseURL: host, timeout: 15, userAgent: "tapsim").send(method, path, body: body, bearer: key, as: type) {
        case .value(let answer):
            return answer
        case .failed(let failure):
            throw Failure(status: nil, code: "unreachable", message: "\(host.absoluteString): \(failure.message)")
        case .invalidURL(let message), .unencodable(let message):
            throw Failure(status: nil, code: "unreachable", message: "\(host.absoluteString): \(message)")
        case .undecodable(let status, let message):
            throw Failure(status: status, code: "unexpected_answer", message: message)
        case .refused(let status, let envelope, let data):
            throw Failure(
                status: status, code: envelope?.error.code.rawValue ?? "http_\(status)",
                message: envelope?.error.message ?? String(decoding: data.prefix(200), as: UTF8.self))
        }
    }
}
