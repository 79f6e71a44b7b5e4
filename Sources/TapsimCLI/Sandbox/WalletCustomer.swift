import DeviceTransport
import Foundation
import SandboxWire
import TapOnMobileSandbox

/// The wallet simulator's customer API (`openapi/wallet.yaml`), as `tapsim qr pay --approve`,
/// `--decline` and `--expire` press the pay page's buttons for a script, and `tapsim blik code`
/// and `blik pay --approve` press the bank app's.
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
        let path = "/api/orders/\(Self.encode(orderId))/\(action.name)"
        var body: [String: String] = [:]
        if case .decline(let reason) = action { body["reason"] = reason.rawValue }
        return try await call("POST", path, body: body, as: WalletProvider.Order.self)
    }

    /// The bank app's "Generate code" (`POST /api/blik/codes`): a fresh code for the customer, with
    /// its verification code when `nine`.
    func blikCode(customerId: String, nine: Bool) async throws(TapOnMobileError) -> WalletBlik.Code {
        try await call("POST", "/api/blik/codes", body: WalletBlik.CodeRequest(customerId: customerId, nine: nine), as: WalletBlik.Code.self)
    }

    /// The bank's customers with their balances now (`GET /api/blik/customers`).
    func blikCustomers() async throws(TapOnMobileError) -> [WalletBlik.Customer] {
        try await call("GET", "/api/blik/customers", body: nil, as: BlikCustomers.self).customers
    }

    /// `{"customers": [...]}`.
    private struct BlikCustomers: Decodable, Sendable { var customers: [WalletBlik.Customer] }

    /// One call to the wallet's customer API.
    ///
    /// - Throws: The wallet's refusal with its code (`order_not_payable`: a transaction error
    ///   `wrongState`; `order_not_found`, `customer_not_found`: `notFound`), or a network error
    ///   when it cannot be reached.
    private func call<Answer: Decodable & Sendable>(
        _ method: String, _ path: String, body: (any Encodable)?, as: Answer.Type
    ) async throws(TapOnMobileError) -> Answer {
        // The SDK's JSON client (libcurl on Linux, URLSession on Apple platforms), as every device call.
        switch await JSONClient(baseURL: base, timeout: 15, userAgent: "tapsim").send(method, path, body: body, as: Answer.self) {
        case .value(let answer):
            return answer
        case .failed(let failure):
            throw .network(
                NetworkError(.unreachable, code: "wallet_unreachable",
                             message: "The wallet at \(base.absoluteString) cannot be reached: \(failure.message)"))
        case .invalidURL(let message), .unencodable(let message):
            throw .network(NetworkError(.unreachable, code: "wallet_unreachable", message: "The wallet cannot be called: \(message)"))
        case .undecodable(let status, let message):
            throw .network(NetworkError(.invalidResponse, message: "The wallet's answer does not decode: \(message)", status: status))
        case .refused(let status, let envelope, let data):
            let code = envelope?.error.code.rawValue ?? "http_\(status)"
            let message = "wallet: " + (envelope?.error.message ?? String(decoding: data.prefix(200), as: UTF8.self))
            switch status {
            case 404: throw .transaction(TransactionError(.notFound, code: code, message: message, status: status))
            case 409: throw .transaction(TransactionError(.wrongState, code: code, message: message, status: status))
            case 400: throw .validation(ValidationError(.invalidRequest, code: code, message: message, status: status, field: envelope?.error.field))
            default: throw .network(NetworkError(.http, code: code, message: message, status: status))
            }
        }
    }

    private static func encode(_ id: String) -> String { id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id }
}
