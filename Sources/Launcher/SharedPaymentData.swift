import HostRules
import CardPayload
import EnvironmentHost
import Foundation
import SandboxCore

/// The payment data files of `sandbox-data/`, loaded once for every host.
public struct SharedPaymentData: Sendable {
    public let readerKeys: ReaderKeys
    public let magicAmounts: MagicAmounts
    public let fx: FXTable
    public let issuer: Issuer

    /// Reads `reader-keys.json` (one key per region), `magic-amounts.json`, `fx.json` and `cards.json`.
    public static func load(sandboxData: URL, regions: [String]) throws -> SharedPaymentData {
        let keys = try ReaderKeys.load(from: sandboxData.appendingPathComponent("reader-keys.json"))
        try keys.requireRegions(regions)
        let magicAmounts = try MagicAmounts.load(contentsOf: sandboxData.appendingPathComponent(MagicAmounts.fileName))
        try magicAmounts.requireRegions(regions)
        return SharedPaymentData(
            readerKeys: keys, magicAmounts: magicAmounts,
            fx: try FXTable.load(contentsOf: sandboxData.appendingPathComponent("fx.json")),
            issuer: try Issuer(cardsFile: sandboxData.appendingPathComponent("cards.json")))
    }

    /// The host of `region`'s share; `load` made sure every region has a reader key.
    public func data(for region: String) -> PaymentData {
        PaymentData(
            readerKey: readerKeys.key(for: region)!, readerKeyID: readerKeys.keyId(for: region)!, magicAmounts: magicAmounts, fx: fx, issuer: issuer)
    }
}
