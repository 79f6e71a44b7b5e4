import DeviceTransport
import Foundation
import SandboxWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
        let answer = try await call("POST", "/backoffice/v1/challenges/confirm", body: body)
        guard let confirmation = try? JSONDecoder().decode(ChallengeConfirmation.self, from: answer) else {
            throw Failure(status: 200, code: "unexpected_answer", message: "no backofficeCode in the answer")
        }
        return confirmation
    }

    /// `POST /backoffice/v1/registration-tokens`: a one-time token for a terminal, as the merchant's
    /// backend gets one (optionally mailed to the back-office mailbox).
    func issueToken(terminalId: String, email: String?) async throws(Failure) -> IssuedRegistrationToken {
        let answer = try await call("POST", "/backoffice/v1/registration-tokens", body: BackOfficeBodies.IssueToken(terminalId: terminalId, email: email))
        guard let issued = try? JSONDecoder().decode(IssuedRegistrationToken.self, from: answer) else {
            throw Failure(status: 201, code: "unexpected_answer", message: "no registrationToken in the answer")
        }
        return issued
    }

    /// `DELETE /backoffice/v1/registration-tokens/{token}`: the token is invalid from now on and its terminal free of it.
    func revokeToken(_ token: String) async throws(Failure) {
        _ = try await call("DELETE", "/backoffice/v1/registration-tokens/" + DeviceTransport.encode(token), body: nil)
    }

    /// `GET /backoffice/v1/merchants`, flattened to terminals.
    func terminals() async throws(Failure) -> [MerchantTerminal] {
        let data = try await call("GET", "/backoffice/v1/merchants", body: nil)
        let answer = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        var terminals: [MerchantTerminal] = []
        for merchant in answer["merchants"] as? [[String: Any]] ?? [] {
            for terminal in merchant["terminals"] as? [[String: Any]] ?? [] {
                guard let id = terminal["terminalId"] as? String else { continue }
                terminals.append(
                    MerchantTerminal(
                        terminalId: id, registered: terminal["registered"] as? Bool ?? false,
                        lockedByToken: terminal["tokenLockedUntil"] is String))
            }
        }
        return terminals
    }

    /// One call with the back-office key; the answer's body when it is a success.
    private func call(_ method: String, _ path: String, body: (any Encodable)?) async throws(Failure) -> Data {
        // The SDK's transport (libcurl on Linux, URLSession on Apple platforms), as every device call.
        let encoded = body.flatMap { try? JSONEncoder().encode($0) }
        let data: Data
        let status: Int
        switch await DeviceTransport(timeout: 15, userAgent: "tapsim")
            .send(method, host.appendingPathComponent(path), headers: ["Authorization": "Bearer \(key)"], body: encoded)
        {
        case .answer(let answered, let body):
            (status, data) = (answered, body)
        case .failed(let failure):
            throw Failure(status: nil, code: "unreachable", message: "\(host.absoluteString): \(failure.message)")
        }
        guard (200..<300).contains(status) else {
            let object = data.isEmpty ? [:] : (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            let envelope = object["error"] as? [String: Any]
            throw Failure(
                status: status, code: envelope?["code"] as? String ?? "http_\(status)",
                message: envelope?["message"] as? String ?? String(decoding: data.prefix(200), as: UTF8.self))
        }
        return data
    }
}
