import WalletStorage
import SandboxCrypto

/// Where the bank app's code digits come from: random by default, a sequence in a test that wants
/// to know the codes ahead.
public struct BlikCodeSource: Sendable {
    private let make: @Sendable (Int) -> String

    public init(_ make: @escaping @Sendable (_ count: Int) -> String) { self.make = make }

    /// `count` uniformly random decimal digits.
    public static let random = BlikCodeSource { count in
        var digits = ""
        while digits.count < count {
            // 250 and above would favour the low digits: drawn again.
            for byte in SecureRandom.bytes(count: count) where byte < 250 && digits.count < count {
                digits.append(Character(String(byte % 10)))
            }
        }
        return digits
    }

    package func digits(_ count: Int) -> String { make(count) }
}
