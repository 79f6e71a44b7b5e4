import Foundation
import SandboxCore
import SandboxHTTP

/// The API surfaces of a host (docs/terminal-lifecycle.md, docs/card-payments.md), one file each:
/// terminal registration, sessions and payments, the merchant API, the back office and its
/// webhooks, sandbox control, receipt pages, and health. Handlers decode and validate, call the
/// rules, and encode their answer; the group middleware (EnvironmentHost+Auth.swift) checks the
/// credential.
extension EnvironmentHost {
    struct Bodies {
        struct Begin: Decodable { let deviceId: String; let deviceModel: String; let osVersion: String? }
        struct Code: Decodable { let code: String }
        struct Complete: Decodable { let deviceId: String; let backofficeCode: String; let pin: String? }
        /// `deviceId` (not in the seed's call, sent by our SDK) lets the device that began a
        /// registration verify it again.
        struct Token: Decodable { let registrationToken: String; let deviceId: String? }
        struct TokenBegin: Decodable { let registrationToken: String; let deviceId: String; let deviceModel: String }
        struct TokenEnd: Decodable { let registrationToken: String; let deviceId: String; let pin: String? }
        struct Login: Decodable { let deviceId: String; let deviceSecret: String; let pin: String? }
        struct SecretCode: Decodable { let oldSecretCode: String; let newSecretCode: String }
        struct Device: Decodable { let deviceId: String; let deviceSecret: String }
        struct Support: Decodable { let deviceId: String }
        struct IssueToken: Decodable { let terminalId: String; let email: String? }
        struct Confirm: Decodable { let challengeCode: String; let terminalId: String?; let merchantId: String? }
        struct Clock: Decodable { let advanceSeconds: Double?; let set: String? }
    }
}
