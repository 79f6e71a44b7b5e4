import Foundation
import SandboxCore

/// The wallet secrets of `sandbox-data/wallet.json`: one per region, signing every request
/// between that region's host and the wallet simulator (docs/qr-payments.md, "Host and wallet").
extension Resources {
    /// Why `wallet.json` gives no secret for a region: the file and what is wrong with it.
    public struct WalletFileError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The secret of `region`, read from `<sandbox-data>/wallet.json`.
    ///
    /// - Throws: ``WalletFileError`` naming the file when it is missing, is not JSON, or has no
    ///   non-empty `secrets.<REGION>` string.
    public func walletSecret(_ region: Region) throws -> String {
        let file = sandboxData.appendingPathComponent("wallet.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw WalletFileError(description: "\(file.path): cannot be read (the wallet secrets of every region)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw WalletFileError(description: "\(file.path): is not a JSON object")
        }
        guard let secrets = object["secrets"] as? [String: Any] else {
            throw WalletFileError(description: "\(file.path): secrets: must be an object of region ids to secrets")
        }
        guard let secret = secrets[region.id] as? String, !secret.isEmpty else {
            throw WalletFileError(description: "\(file.path): secrets.\(region.id): must be a non-empty string")
        }
        return secret
    }
}
