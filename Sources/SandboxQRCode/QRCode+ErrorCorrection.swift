internal import CQREncode

extension QRCode {
    /// How much of a symbol may be damaged or hidden and still be read back.
    ///
    /// Higher levels survive more but need a larger symbol for the same text.
    ///
    /// ```swift
    /// let printed = try QRCode(text: token, errorCorrection: .quartile)
    /// ```
    public enum ErrorCorrection: String, CaseIterable, Hashable, Sendable {
        /// Level L: about 7 % of the codewords can be restored.
        case low
        /// Level M: about 15 %.
        case medium
        /// Level Q: about 25 %.
        case quartile
        /// Level H: about 30 %.
        case high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }
}
