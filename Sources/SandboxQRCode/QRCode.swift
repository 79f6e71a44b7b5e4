internal import CQREncode
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A QR code symbol, encoded by libqrencode and kept as a plain grid of modules.
///
/// The portal shows registration tokens and wallet orders as QR codes; this type turns the
/// text into modules once and renders them (``svg(moduleSize:quietZone:)``). The smallest
/// version (size) that holds the text at the chosen error-correction level is picked
/// automatically, and digits and upper-case runs are packed in their denser modes.
///
/// ```swift
/// let code = try QRCode(text: "https://localhost:8443/register?token=RT-8F2K", errorCorrection: .medium)
/// code.size                  // 33 modules per side (version 4)
/// code.isDark(x: 0, y: 0)    // true: corner of a finder pattern
/// let svg = code.svg()       // <svg …><path d="M4 4h7v1h-7z…"/></svg>
/// ```
public struct QRCode: Hashable, Sendable {
    /// The encoded text.
    public let text: String

    /// The error-correction level the symbol was built with.
    public let errorCorrection: ErrorCorrection

    /// The QR version, 1 to 40; ``size`` is `17 + 4 × version`.
    public let version: Int

    /// The number of modules per side, without a quiet zone.
    public let size: Int

    /// Row-major, `size × size`: `true` for a dark module.
    private let modules: [Bool]

    /// Encodes `text` (as UTF-8) into the smallest QR symbol that holds it.
    ///
    /// - Parameters:
    ///   - text: What a scanner will read back; must not be empty.
    ///   - errorCorrection: How much damage the symbol survives; ``ErrorCorrection/medium`` by
    ///     default, which suits screens and prints alike.
    /// - Throws: ``QRCodeError/emptyText`` for `""`, ``QRCodeError/textTooLong`` when the
    ///   text does not fit in version 40, ``QRCodeError/encodingFailed`` otherwise.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws {
        guard !text.isEmpty else { throw QRCodeError.emptyText }
        let level = errorCorrection.level

        errno = 0
        let symbol: UnsafeMutablePointer<CQREncode.QRcode>?
        if text.utf8.contains(0) {
            // QRcode_encodeString stops at NUL; such text is encoded byte by byte instead.
            let bytes = Array(text.utf8)
            guard let count = Int32(exactly: bytes.count) else { throw QRCodeError.textTooLong }
            symbol = bytes.withUnsafeBufferPointer { QRcode_encodeData(count, $0.baseAddress, 0, level) }
        } else {
            // Version 0 lets libqrencode pick the smallest fitting version; QR_MODE_8 with case
            // sensitivity keeps the text exact while numeric/alphanumeric runs still pack densely.
            symbol = QRcode_encodeString(text, 0, level, QR_MODE_8, 1)
        }
        guard let symbol else {
            let code = Int(errno)
            if code == Int(ERANGE) { throw QRCodeError.textTooLong(errno: code) }
            throw QRCodeError.encodingFailed(errno: code)
        }
        // Copy the bits out so that no C memory outlives this initializer.
        defer { QRcode_free(symbol) }

        let width = Int(symbol.pointee.width)
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        // Bit 0 of each byte is the module colour; the other bits describe its role.
        self.modules = data.map { $0 & 0x01 == 1 }
        self.size = width
        self.version = Int(symbol.pointee.version)
        self.text = text
        self.errorCorrection = errorCorrection
    }

    /// Whether the module at column `x`, row `y` is dark.
    ///
    /// Coordinates outside `0..<size` are the light quiet zone around the symbol, so they
    /// answer `false` instead of trapping; renderers can draw a margin with the same call.
    ///
    /// ```swift
    /// for y in 0..<code.size { print((0..<code.size).map { code.isDark(x: $0, y: y) ? "██" : "  " }.joined()) }
    /// ```
    ///
    /// - Parameters:
    ///   - x: Column, 0 at the left.
    ///   - y: Row, 0 at the top.
    /// - Returns: `true` for a dark module.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The number of dark modules in the symbol.
    public var darkModuleCount: Int {
        modules.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}
