import DeviceTransport
import Foundation
import SandboxWire
import SimulatedReader

/// The MONEI host's device calls (`/v1/pos/prepare`, `/v1/pos/payments`) with the POS token, and
/// their answers reduced to what the SDK decides on.
///
/// ```swift
/// let client = MoneiClient(baseURL: url, timeout: 15)
/// let pointOfSale: MoneiClient.Answer<MoneiBodies.PointOfSale> = await client.send("/v1/pos/prepare", token: token)
/// ```
struct MoneiClient: Sendable {
    private let client: JSONClient
    var baseURL: URL { client.baseURL }

    init(baseURL: URL, timeout: TimeInterval) {
        client = JSONClient(baseURL: baseURL, timeout: timeout, userAgent: "MoneiTapToPay/\(TapToPay.version)")
    }

    /// How a call ended.
    enum Answer<Value: Sendable>: Sendable {
        /// A 2xx answer that decodes.
        case value(Value)
        /// The host refused: its HTTP status and the sandbox's stable `code` (MONEI's error body, or
        /// the one envelope of a fault injected on the host).
        case refused(status: Int, code: String?)
        /// Nothing was sent: the request certainly did nothing.
        case notSent
        /// Sent, and no usable answer came (timeout, cut connection, an answer that does not
        /// decode): the host may have done it.
        case noAnswer
    }

    /// The customer a test queued on the host for this point of sale's next card screen, taken (``ScriptedCustomer``).
    func scriptedCustomer(pointOfSaleId: String) async -> CardScript? {
        await ScriptedCustomer.next(host: baseURL, terminalId: pointOfSaleId, transport: client.transport)
    }

    /// POSTs `body` (or nothing) with `Authorization: Bearer <token>`.
    func send<Value: Decodable & Sendable>(
        _ path: String, token: String, body: (any Encodable)? = nil, as type: Value.Type = Value.self
    ) async -> Answer<Value> {
        switch await client.send("POST", path, body: body, bearer: token, as: type) {
        case .value(let value): return .value(value)
        case .failed(let failure): return failure.kind == .unreachable ? .notSent : .noAnswer
        case .invalidURL, .unencodable: return .notSent
        case .undecodable: return .noAnswer
        case .refused(let status, let envelope, let body):
            // MONEI's error body, or the one envelope of a fault injected on the host.
            let code = (try? JSONDecoder().decode(MoneiBodies.Error.self, from: body))?.code ?? envelope?.error.code.rawValue
            return .refused(status: status, code: code)
        }
    }
}
