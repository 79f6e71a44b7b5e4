import SandboxCore
import SandboxHTTP
import SandboxWire

/// The pure payment rules of SandboxCore, answered with the wire's error envelope.
enum PaymentValidation {
    static func http(_ error: PaymentRuleError, field: String? = nil) -> HTTPError {
        HTTPError(status: error.code.httpStatus, code: error.code.rawValue, message: error.message, field: field ?? error.field)
    }

    static func sale(_ request: Payments.SaleRequest, terminal: TerminalInfo, amountField: String = "requestedAmount")
        throws(HTTPError)
    {
        do {
            _ = try PaymentRules.validateSale(
                requestedAmount: request.requestedAmount, tipAmount: request.tipAmount, currency: request.currency,
                reference: request.reference, countryCode: request.countryCode, terminal: terminal)
        } catch {
            throw http(error, field: error.field == "requestedAmount" ? amountField : nil)
        }
    }

    static func refund(_ request: Payments.RefundRequest, terminal: TerminalInfo) throws(HTTPError) {
        do {
            _ = try PaymentRules.validateCurrency(request.currency, terminal: terminal)
            try PaymentRules.validateAmount(request.requestedAmount, terminal: terminal)
            try PaymentRules.validateReference(request.reference, terminal: terminal)
        } catch {
            throw http(error)
        }
    }

    static func amount(_ amount: Int, terminal: TerminalInfo, field: String) throws(HTTPError) {
        do { try PaymentRules.validateAmount(amount, terminal: terminal) } catch { throw http(error, field: field) }
    }

    static func tip(_ tipAmount: Int?, requestedAmount: Int, terminal: TerminalInfo) throws(HTTPError) {
        do { _ = try PaymentRules.validateTip(tipAmount, requestedAmount: requestedAmount, terminal: terminal) } catch { throw http(error) }
    }

    static func reference(_ reference: String?, terminal: TerminalInfo) throws(HTTPError) {
        do { try PaymentRules.validateReference(reference, terminal: terminal) } catch { throw http(error) }
    }

    static func country(_ code: String?, terminal: TerminalInfo) throws(HTTPError) {
        do { try PaymentRules.validateCountry(code, terminal: terminal) } catch { throw http(error) }
    }
}
