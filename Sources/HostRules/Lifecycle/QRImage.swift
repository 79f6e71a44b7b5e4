import HostStorage
import SandboxQRCode
import Synchronization

/// The QR code of a registration token or a QR payment's order, as SVG.
///
/// The latest images are kept: a device polls its open QR payment every `apmPulling` seconds and
/// gets the same image each time, and a new payment's image is drawn before its write
/// (``APMPayments/create(_:_:key:)``), so the writer thread only looks it up.
package enum QRImage {
    /// How many images are kept; all are dropped when a new one would pass it.
    package static let kept = 256
    private static let images = Mutex<[String: String]>([:])

    package static func svg(_ payload: String) throws -> String {
        if let image = images.withLock({ $0[payload] }) { return image }
        let image = try QRCode(text: payload, errorCorrection: .medium).svg(moduleSize: 6, quietZone: 4)
        images.withLock { images in
            if images.count >= kept { images.removeAll(keepingCapacity: true) }
            images[payload] = image
        }
        return image
    }
}
