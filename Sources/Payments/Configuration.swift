import Foundation
import Synchronization

/// What the Payments SDK runs with: the Geopagos host and the readers the app registers
/// (Geopagos seed 001).
///
/// ```swift
/// let configuration = try PaymentsConfiguration.Builder(
///     endpoint: URL(string: "http://127.0.0.1:8114")!,
///     readerInstallers: [tapToPayInstaller]
/// ).build()
/// PaymentsSDK.configure(paymentsConfiguration: configuration)
/// ```
public struct PaymentsConfiguration: Sendable {
    /// The Geopagos host's base URL (`sandbox up`'s GEOPAGOS entry, 8114 by default).
    public let endpoint: URL
    /// The installers of the readers the app offers, in order.
    public let readerInstallers: [any ReaderInstaller]

    /// Collects the configuration; ``build()`` checks it.
    public final class Builder {
        private let endpoint: URL
        private let readerInstallers: [any ReaderInstaller]

        public init(endpoint: URL, readerInstallers: [any ReaderInstaller]) {
            self.endpoint = endpoint
            self.readerInstallers = readerInstallers
        }

        /// The configuration, or why it cannot run.
        ///
        /// - Throws: ``PaymentsConfigurationError/invalidEndpoint(_:)`` for a URL that is not
        ///   `http` or `https` with a host (the sandbox takes plain `http` for loopback and the LAN;
        ///   an app on a real iPhone keeps App Transport Security on, as the seed requires),
        ///   ``PaymentsConfigurationError/noReaderInstallers``, and
        ///   ``PaymentsConfigurationError/duplicateInstaller`` when one installer is listed twice.
        public func build() throws -> PaymentsConfiguration {
            guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = endpoint.host, !host.isEmpty
            else {
                throw PaymentsConfigurationError.invalidEndpoint(endpoint.absoluteString)
            }
            guard !readerInstallers.isEmpty else { throw PaymentsConfigurationError.noReaderInstallers }
            for (index, installer) in readerInstallers.enumerated()
            where readerInstallers[..<index].contains(where: { $0 === installer }) {
                throw PaymentsConfigurationError.duplicateInstaller
            }
            return PaymentsConfiguration(endpoint: endpoint, readerInstallers: readerInstallers)
        }
    }
}

/// Why ``PaymentsConfiguration/Builder/build()`` refused a configuration.
public enum PaymentsConfigurationError: Error, Sendable, Equatable {
    /// The endpoint is not an `http` or `https` URL with a host.
    case invalidEndpoint(String)
    /// No reader installer was given.
    case noReaderInstallers
    /// The same installer instance is listed twice.
    case duplicateInstaller
}

/// The SDK's entry point.
public enum PaymentsSDK {
    private static let current = Mutex<PaymentsConfiguration?>(nil)

    /// Sets the configuration every transaction intent runs with; a later call replaces it.
    public static func configure(paymentsConfiguration: PaymentsConfiguration) {
        current.withLock { $0 = paymentsConfiguration }
        for installer in paymentsConfiguration.readerInstallers {
            installer.engine.use(endpoint: paymentsConfiguration.endpoint)
        }
    }

    /// The configuration set last, or `nil` before ``configure(paymentsConfiguration:)``.
    public static var configuration: PaymentsConfiguration? { current.withLock { $0 } }

    /// The readers the app can use now (the scan the seed's "Scanning" shows): one per registered
    /// installer whose device supports it.
    public static var availableDevices: [Device] {
        (configuration?.readerInstallers ?? []).compactMap { $0.engine.isSupported ? $0.engine.device : nil }
    }
}
