/// A `wallet.json` the simulator cannot use.
public struct WalletDataError: Error, CustomStringConvertible, Equatable {
    public let description: String
}
