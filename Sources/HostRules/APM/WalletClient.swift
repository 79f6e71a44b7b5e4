import HostStorage
import SandboxTime
import FastJSON
import Foundation
import SandboxHTTPClient
import SandboxWire
import Synchronization

/// The host's side of the wallet provider's API (docs/qr-payments.md, "Host and wallet"): every
/// request signed with the region's secret, with a short timeout, because a device waits for the
/// order's QR on the other end.
package struct WalletClient: Sendable {
    /// How long the host waits for the wallet: the device's `doQRPayment` waits behind it.
    package static let timeout: Duration = .seconds(2)

    /// The wallet's base URL (`http://127.0.0.1:8110`); nil: this host has no wallet, and QR
    /// payments answer `apm_provider_unavailable`. Set once more by `sandbox up`, which starts the
    /// wallet after the hosts.
    package var baseURL: String? { base.withLock { $0 } }
    private let base: SharedURL
    package let region: String
    /// The region's secret from `sandbox-data/wallet.json`; nil without a wallet.
    package let secret: String?
    /// Real time: the wallet checks the signature's timestamp against its own clock.
    package let wallClock: any TimeSource
    package let client: HTTPClient

    package init(baseURL: String?, region: String, secret: String?, wallClock: any TimeSource) {
        base = SharedURL(baseURL.map(Self.trimmed))
        self.region = region
        self.secret = secret
        self.wallClock = wallClock
        // Kept-alive connections for as many payments as a busy host makes at once (32 devices):
        // with fewer, every payment past them connected anew and the wallet accepted anew.
        client = HTTPClient(
            configuration: .init(
                connectTimeout: Self.timeout, totalTimeout: Self.timeout, maxResponseBodySize: 256 * 1024,
                userAgent: "TapSandbox-Host/1.0", maxIdleHandles: 32))
    }

    /// The wallet's URL from now on.
    package func use(baseURL: String) { base.withLock { $0 = Self.trimmed(baseURL) } }

    private static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    /// The one URL every copy of the client reads.
    package final class SharedURL: Sendable {
        private let value: Mutex<String?>
        package init(_ value: String?) { self.value = Mutex(value) }
        package func withLock<T>(_ body: (inout String?) -> T) -> T { value.withLock { body(&$0) } }
    }

    /// What the wallet said to a call: its status and body, or why there was no answer.
    package enum Answer: Sendable {
        case answered(status: Int, body: [UInt8])
        case unanswered(String)
    }

    /// Sends one signed request (`body` empty for a GET, which signs the empty body).
    package func send(_ method: HTTPClientRequest.Method, _ path: String, body: [UInt8]) -> Answer {
        guard let baseURL, let secret else { return .unanswered("this host has no wallet URL") }
        let timestamp = Int(wallClock.now().timeIntervalSince1970.rounded(.down))
        let headers: HTTPClientHeaders = [
            "Content-Type": "application/json",
            WalletProvider.regionHeader: region,
            WalletProvider.signatureHeader: WalletSignature.value(body: body, secret: secret, timestamp: timestamp),
        ]
        do {
            let response = try client.send(HTTPClientRequest(method: method, url: baseURL + path, headers: headers, body: body))
            return .answered(status: response.status, body: response.body)
        } catch {
            return .unanswered("\(error)")
        }
    }

    /// `POST /provider/v1/orders`: makes the order and answers it (with its `payUrl`).
    ///
    /// - Throws: `apm_provider_unavailable` when the wallet does not answer, or answers anything
    ///   but the order.
    package func createOrder(_ order: WalletProvider.OrderRequest) throws -> WalletProvider.Order {
        switch send(.post, "/provider/v1/orders", body: try SortedJSONEncoder.encode(order)) {
        case .unanswered(let why):
            throw PaymentError.apmProviderUnavailable(why)
        case .answered(let status, let body) where (200..<300).contains(status):
            guard let made = try? FastJSONDecoder.decode(WalletProvider.Order.self, from: body), made.orderId == order.orderId else {
                throw PaymentError.apmProviderUnavailable("the wallet answered \(status) without the order")
            }
            return made
        case .answered(let status, let body):
            let code = (try? FastJSONDecoder.decode(ErrorEnvelope.self, from: body)).map { " \($0.error.code.rawValue)" } ?? ""
            throw PaymentError.apmProviderUnavailable("the wallet answered \(status)\(code)")
        }
    }
}
