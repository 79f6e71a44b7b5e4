import HostRules
import HostStorage
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxWire

/// The API surfaces of a host (docs/terminal-lifecycle.md, docs/card-payments.md), one file each:
/// terminal registration, sessions and payments, the merchant API, the back office and its
/// webhooks, sandbox control, receipt pages, and health. Handlers decode and validate, call the
/// rules, and encode their answer; the group middleware (EnvironmentHost+Auth.swift) checks the
/// credential.
extension EnvironmentHost {
    struct Bodies {
        // The terminal API's bodies are the wire's, one type each with the SDK's.
        typealias Begin = TerminalBodies.Begin
        typealias Code = TerminalBodies.Code
        typealias Complete = TerminalBodies.Complete
        typealias Token = TerminalBodies.Token
        typealias TokenBegin = TerminalBodies.TokenBegin
        typealias TokenEnd = TerminalBodies.TokenEnd
        typealias Login = TerminalBodies.Login
        typealias SecretCode = TerminalBodies.SecretCode
        typealias Device = TerminalBodies.Device
        typealias Support = TerminalBodies.Support
        // The back office's bodies that tapsim sends too.
        typealias IssueToken = BackOfficeBodies.IssueToken
        typealias Confirm = BackOfficeBodies.Confirm
        struct Clock: Decodable { let advanceSeconds: Double?; let set: String?; let realTime: Bool? }
    }
}
