/// The one error type of the `QRCode` module.
///
/// Each failure has a stable kind, exposed as a `static let`, so callers match it with `==`.
/// When libqrencode itself fails, the C `errno` it reported is kept for logs.
///
/// ```swift
/// do {
///     let code = try QRCode(text: token)
/// } catch let error as QRCodeError where error == .textTooLong {
///     // Ask for a shorter payload or a lower error-correction level.
/// }
/// ```
///
/// Equality compares the kind only.
public struct QRCodeError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case emptyText
        case textTooLong
        case encodingFailed
    }

    private let code: Code

    /// The `errno` libqrencode set, or `nil` when the failure was found before calling it.
    public let systemErrorCode: Int?

    /// Why encoding failed, in words for a log line.
    public let message: String

    private init(_ code: Code, message: String, systemErrorCode: Int? = nil) {
        self.code = code
        self.message = message
        self.systemErrorCode = systemErrorCode
    }

    /// The text is empty: there is nothing to encode.
    public static let emptyText = QRCodeError(.emptyText, message: "QR code text is empty")

    /// The text does not fit in a version 40 symbol at the chosen error-correction level
    /// (at most 2953 bytes at level L, 1273 at level H, fewer for mixed content).
    public static let textTooLong = QRCodeError(
        .textTooLong,
        message: "QR code text is too long for a version 40 symbol at this error-correction level"
    )

    /// libqrencode failed for another reason (for example, out of memory).
    public static let encodingFailed = QRCodeError(.encodingFailed, message: "QR code encoding failed")

    static func encodingFailed(errno: Int) -> QRCodeError {
        QRCodeError(.encodingFailed, message: "QR code encoding failed (errno \(errno))", systemErrorCode: errno)
    }

    static func textTooLong(errno: Int) -> QRCodeError {
        QRCodeError(.textTooLong, message: textTooLong.message, systemErrorCode: errno)
    }

    public static func == (lhs: QRCodeError, rhs: QRCodeError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    public var description: String {
        "QRCodeError.\(code.rawValue): \(message)"
    }
}
