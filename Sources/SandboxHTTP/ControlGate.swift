import Foundation
import SandboxCrypto
import SandboxWire

/// Sandbox control behind a key: what a service does to its whole state (move the clock, reset,
/// inject faults, trigger webhooks) answers 401 `control_key_required` unless the request carries
/// the key in `X-Sandbox-Control-Key`.
///
/// A service that listens on loopback only has no key and its control is open, as it always was;
/// one that listens anywhere else gets a key (``ServerConfiguration/controlKey``), since anyone
/// who reaches it could otherwise move a prod-flavour clock by 91 days and unregister every device.
/// Reading the clock stays open: the wallet's pages count down on it, from a customer's phone too.
///
/// ```swift
/// let gated = ControlGate(key: "ctl_…", inner: router)   // the server does this itself
/// ```
public struct ControlGate: Responder {
    /// The header that carries the key.
    public static let header = "X-Sandbox-Control-Key"

    let key: String
    let inner: any Responder
    let isControl: @Sendable (Request) -> Bool

    /// - Parameter isControl: which requests need the key; by default ``isSandboxControl(_:)``.
    public init(key: String, inner: any Responder, isControl: @escaping @Sendable (Request) -> Bool = Self.isSandboxControl) {
        self.key = key
        self.inner = inner
        self.isControl = isControl
    }

    /// Every `/_sandbox/*` request but a read (`GET`, `HEAD`) and the simulated reader's take of
    /// its terminal's next scripted customer (`POST /_sandbox/customer/{terminalId}/next`), which a
    /// device makes at each card screen and which has no key to send.
    @Sendable public static func isSandboxControl(_ request: Request) -> Bool {
        isSandboxControl(method: request.method, path: request.path)
    }

    /// The rule itself, for a call not yet made (the portal's relay of one).
    public static func isSandboxControl(method: String, path: String) -> Bool {
        guard path.hasPrefix("/_sandbox/"), method != "GET", method != "HEAD" else { return false }
        return !(method == "POST" && path.hasPrefix("/_sandbox/customer/") && path.hasSuffix("/next") && path.utf8.count(where: { $0 == 0x2F }) == 4)
    }

    /// Whether `request` carries `key` (compared in constant time).
    public static func admits(_ request: Request, key: String) -> Bool {
        guard let given = request.header(header) else { return false }
        return ConstantTime.equals(Array(given.utf8), Array(key.utf8))
    }

    /// The refusal of a request without the key, or with another.
    public static func refusal(for request: Request) -> HTTPError {
        let given = request.header(header) != nil
        return HTTPError(
            status: 401, code: .controlKeyRequired,
            message: given
                ? "The sandbox control key is wrong."
                : "Sandbox control here (and the portal's back office, on a sandbox that listens beyond loopback) needs the header "
                    + "\(header) with the key the service printed at start (also controlKey in endpoints.json).",
            field: "header.\(header)")
    }

    public func respond(to request: Request) -> Response {
        guard !isControl(request) || Self.admits(request, key: key) else { return Self.refusal(for: request).response }
        return inner.respond(to: request)
    }

    public func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
        guard !isControl(request) || Self.admits(request, key: key) else {
            let refusal = Self.refusal(for: request).response
            reply { refusal }
            return
        }
        inner.respond(to: request, reply: reply)
    }
}
