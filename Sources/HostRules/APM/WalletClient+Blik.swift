import HostStorage
import FastJSON
import SandboxWire

/// The BLIK call of the wallet provider's API (docs/blik.md, "Host and wallet").
extension WalletClient {
    /// `POST /provider/v1/blik/payments`: the wallet checks and spends the code at once and makes
    /// the order (brand BLIK) that waits for the customer's confirmation.
    ///
    /// - Throws: the wallet's code-stage refusal as it gave it (``PaymentError/blikRefused(status:_:)``),
    ///   or `apm_provider_unavailable` when the wallet does not answer or answers anything else.
    package func blikPayment(_ payment: WalletBlik.PaymentRequest) throws -> WalletProvider.Order {
        switch send(.post, "/provider/v1/blik/payments", body: try SortedJSONEncoder.encode(payment)) {
        case .unanswered(let why):
            throw PaymentError.apmProviderUnavailable(why)
        case .answered(let status, let body) where (200..<300).contains(status):
            guard let made = try? FastJSONDecoder.decode(WalletProvider.Order.self, from: body), made.orderId == payment.paymentId else {
                throw PaymentError.apmProviderUnavailable("the wallet answered \(status) without the order")
            }
            return made
        case .answered(let status, let body):
            let envelope = try? FastJSONDecoder.decode(ErrorEnvelope.self, from: body)
            if let refusal = envelope?.error, (400..<500).contains(status), PaymentError.blikCodeRefusals.contains(refusal.code) {
                throw PaymentError.blikRefused(status: status, refusal)
            }
            throw PaymentError.apmProviderUnavailable("the wallet answered \(status)\(envelope.map { " \($0.error.code.rawValue)" } ?? "")")
        }
    }
}
