import Foundation
import SandboxWire
import TapOnMobileSandbox

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The wallet simulator's customer API (`openapi/wallet.yaml`), as `tapsim qr pay --approve`,
/// `--decline` and `--expire` press the pay page's buttons for a script.
///
/// ```swift
/// let wallet = WalletCustomer(base: URL(string: "http://127.0.0.1:8110")!)
/// let order = try await wallet.pay(orderId: transaction.transactionId)   // .paid once the host took it
/// ```
struct WalletCustomer: Sendable {
    /// What the customer does with the order.
    enum Action: Sendable, Equatable {
        case pay
        case decline(APMDeclineReason)
        case expire

        /// The word `--json` reports and the page's button.
        var name: String {
            switch self {
            case .pay: "pay"
            case .decline: "decline"
            case .expire: "expire"
            }
        }
    }

    var base: URL

    /// Presses the button; answers the order after it (`paid`, `declined`, `expired`, `refused`,
    /// or `paying` when the host did not answer in time and the wallet retries in the background).
    ///
    /// - Throws: The wallet's refusal with its code (`order_not_payable`: a transaction error
    ///   `wrongState`; `order_not_found`: `notFound`), or a network error when it cannot be reached.
    func perform(_ action: Action, orderId: String) async throws(TapOnMobileError) -> WalletProvider.Order {
        let path = "/api/orders/\(orderId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? orderId)/\(action.name)"
        var request = URLRequest(url: URL(string: base.absoluteString.trimmingSuffix("/") + path)!, timeoutInterval: 15)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if case .decline(let reason) = action {
            request.httpBody = Data(#"{"reason":"\#(reason.rawValue)"}"#.utf8)
        } else {
            request.httpBody = Data("{}".utf8)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw .network(
                NetworkError(.unreachable, code: "wallet_unreachable",
                             message: "The wallet at \(base.absoluteString) cannot be reached: \(error.localizedDescription)"))
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: data)
            let code = envelope?.error.code.rawValue ?? "http_\(status)"
            let message = "wallet: " + (envelope?.error.message ?? String(decoding: data.prefix(200), as: UTF8.self))
            switch status {
            case 404: throw .transaction(TransactionError(.notFound, code: code, message: message, status: status))
            case 409: throw .transaction(TransactionError(.wrongState, code: code, message: message, status: status))
            case 400: throw .validation(ValidationError(.invalidRequest, code: code, message: message, status: status, field: envelope?.error.field))
            default: throw .network(NetworkError(.http, code: code, message: message, status: status))
            }
        }
        do {
            return try JSONDecoder().decode(WalletProvider.Order.self, from: data)
        } catch {
            throw .network(NetworkError(.invalidResponse, message: "The wallet's order does not decode: \(error)", status: status))
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
