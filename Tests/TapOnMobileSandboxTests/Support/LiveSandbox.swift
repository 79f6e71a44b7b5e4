import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

// `sandbox up` in this process (HostTestSupport's `InProcessSandbox`), and the merchant's side
// of it over HTTP: the back office that confirms challenges and issues registration tokens, the
// sandbox clock, the mailbox. This file is the only one that sees the server-side support; the
// SDK tests talk to the sandbox through URLs alone.

/// The whole sandbox, started for one test and stopped by ``withSandbox(_:)``.
typealias LiveSandbox = InProcessSandbox

/// Starts the sandbox with the hosts these tests use (EU for cards and QR, MBANK for BLIK), runs
/// `body`, stops the sandbox.
func withSandbox<T>(_ body: (LiveSandbox) async throws -> T) async throws -> T {
    try await HostTestSupport.withSandbox(regions: ["EU", "MBANK"], body)
}

extension InProcessSandbox {
    /// The back office of a region.
    func backOffice(_ region: String) -> BackOffice {
        BackOffice(region: region, baseURL: try! url(of: region), key: fixtures.regions[region]!.backOfficeKey)
    }

    /// Moves the wallet's clock forward (its `POST /_sandbox/clock`); what fell due is done before it answers.
    func advanceWalletClock(seconds: Double) async throws {
        let reply = await Service(name: "wallet", baseURL: sandbox.wallet.url).call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds])
        guard reply.status == 200 else { throw BackOfficeFailure(description: "wallet clock: \(reply)") }
    }
}

struct BackOfficeFailure: Error, CustomStringConvertible {
    let description: String
}

/// What the merchant portal does for a tester, over the host's back-office and sandbox APIs.
struct BackOffice: Sendable {
    let region: String
    let baseURL: String
    let key: String

    /// Sends a JSON request; answers the status and the decoded object.
    @discardableResult
    func call(_ method: String, _ path: String, body: [String: Any]? = nil, authorized: Bool = true) async throws
        -> (status: Int, json: [String: Any])
    {
        let reply = await Service(name: region, baseURL: baseURL).call(method, path, bearer: authorized ? key : nil, body: body)
        guard reply.status != 0 else { throw BackOfficeFailure(description: reply.description) }
        return (reply.status, reply.object)
    }

    private func expect(_ answer: (status: Int, json: [String: Any]), _ status: Int, _ what: String) throws -> [String: Any] {
        guard answer.status == status else {
            throw BackOfficeFailure(description: "[\(region)] \(what): expected \(status), got \(answer.status) \(answer.json)")
        }
        return answer.json
    }

    /// The portal turns the device's challenge code into a back-office code for `terminal`.
    func confirm(challenge: String, terminal: String) async throws -> String {
        let json = try expect(
            try await call("POST", "/backoffice/v1/challenges/confirm", body: ["challengeCode": challenge, "terminalId": terminal]), 200,
            "confirm challenge")
        return try #require(json["backofficeCode"] as? String)
    }

    /// A registration token for `terminal`, as the merchant's backend would get it.
    func registrationToken(terminal: String) async throws -> String {
        let json = try expect(
            try await call("POST", "/backoffice/v1/registration-tokens", body: ["terminalId": terminal]), 201, "issue token")
        return try #require(json["registrationToken"] as? String)
    }

    /// What the back office knows of a terminal (`registered`, `deviceId`, `locked` …).
    func terminal(_ id: String) async throws -> [String: Any] {
        try expect(try await call("GET", "/backoffice/v1/terminals/\(id)"), 200, "terminal state")
    }

    /// The sandbox mailbox, newest first.
    func mailbox() async throws -> [[String: Any]] {
        try expect(try await call("GET", "/backoffice/v1/mailbox"), 200, "mailbox")["messages"] as? [[String: Any]] ?? []
    }

    /// Moves the host's clock forward (`POST /_sandbox/clock`).
    func advanceClock(seconds: Double) async throws {
        _ = try expect(try await call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds], authorized: false), 200, "clock")
    }
}
