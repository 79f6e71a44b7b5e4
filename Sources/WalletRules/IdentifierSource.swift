import WalletStorage
import SandboxCrypto

/// Where the wallet's ids come from (payments, refunds, notifications, rules): random by
/// default, a counter in a test that wants to know them ahead.
public struct IdentifierSource: Sendable {
    private let make: @Sendable (String) -> String

    public init(_ make: @escaping @Sendable (_ prefix: String) -> String) { self.make = make }

    /// `wpay_3f9c1a…`: the prefix and 16 random hex digits.
    public static let random = IdentifierSource { prefix in prefix + "_" + Hex.encode(SecureRandom.bytes(count: 8)) }

    package func next(_ prefix: String) -> String { make(prefix) }
}
