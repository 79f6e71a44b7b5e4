import Foundation

/// Where the device is, reduced to what the sandbox needs: the country, for the terminal's
/// `permittedCountries` and the sale's `countryCode`.
public struct LocationFix: Sendable, Equatable, Hashable {
    /// ISO 3166-1 alpha-2 country code.
    public var countryCode: String
    /// When the fix arrived, on the reader's clock.
    public var at: Date

    /// A fix.
    public init(countryCode: String, at: Date) {
        self.countryCode = countryCode
        self.at = at
    }
}
