import QRCode

/// The QR code a portal shows for a registration token, as SVG.
enum QRImage {
    static func svg(_ payload: String) throws -> String {
        try QRCode(text: payload, errorCorrection: .medium).svg(moduleSize: 6, quietZone: 4)
    }
}
