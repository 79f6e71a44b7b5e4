import Foundation

/// A kind of reader the app registers in ``PaymentsConfiguration`` (`TapToPayReaderInstaller` of
/// TapToPayHardware).
public protocol ReaderInstaller: AnyObject, Sendable {
    /// What runs the reader: its connection to the host and its card reads.
    var engine: ReaderEngine { get }
}

/// A reader the app can pick in ``SDKTransactionState/provideDevice(provideDeviceCallback:)``.
public struct Device: Sendable, Equatable, Hashable, Identifiable {
    /// Stable for the installer: the same reader keeps its id across transactions.
    public let id: String
    /// For the app's list: `Tap to Pay on iPhone`.
    public let name: String
    /// The phone model behind it (`iPhone15,2`).
    public let model: String

    public init(id: String, name: String, model: String) {
        self.id = id
        self.name = name
        self.model = model
    }
}

/// What a connected reader tells about itself.
public struct ReaderInfo: Sendable, Equatable, Hashable {
    /// The terminal of the host the reader's token named (`GEOPAGOS-T0101`).
    public let terminalId: String
    /// The token's country (ISO 3166-1 alpha-2) and currency (ISO 4217): the terminal configuration.
    public let country: String
    public let currency: String
    /// iOS on the phone.
    public let osVersion: String
}

/// What a connected reader is doing.
public enum ReaderStatus: Sendable, Equatable, Hashable {
    /// Connected and waiting for a transaction.
    case idle
    /// Apple's card screen is up.
    case waitingForCard
    /// A card is being read in `mode`.
    case processing(ReadMode)
    /// Apple's screen asks for the card's PIN.
    case requestingPin
}

/// The reader's connection, as ``SDKTransactionListener/onReaderStateChanged(state:)`` reports it.
public enum ReaderState: Sendable, Equatable, Hashable {
    case notConnected
    case connecting(Device)
    case connected(Device, ReaderInfo, ReaderStatus)
}
