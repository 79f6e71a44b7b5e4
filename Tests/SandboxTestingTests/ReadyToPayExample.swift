import Foundation
import SandboxTesting

/// What each UI test of a checkout starts from: the state of `seed`, saved once as a snapshot and
/// brought back before every later test, with the customer's answer to the next QR order.
enum Checkout {
    static func prepare(_ sandbox: TestSandbox = .local(), seed: URL) async throws {
        if try await sandbox.snapshots().contains("ready-to-pay") {
            try await sandbox.restore("ready-to-pay")
        } else {
            try await sandbox.reset()
            try await sandbox.seed(contentsOf: seed)
            try await sandbox.snapshot("ready-to-pay")
        }
        try await sandbox.answerNextWalletPayment(.approve, terminalId: "EU-T0101")
    }

    /// What the merchant's backend was told, newest first (`payment.succeeded`, …).
    static func webhooks(_ sandbox: TestSandbox = .local()) async throws -> [String] {
        try await sandbox.receivedWebhooks().compactMap(\.type)
    }
}
