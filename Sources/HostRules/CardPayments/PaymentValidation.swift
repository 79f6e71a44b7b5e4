import HostStorage
import SandboxCore
import SandboxWire

/// The pure payment rules of SandboxCore, refused as ``PaymentError``s.
package enum PaymentValidation {
    package static func sale(
        _ request: CardPayments.SaleRequest, terminal: TerminalInfo, amountField: String = "requestedAmount", minimumAmount: Int = 1
    ) throws(PaymentError) {
        do {
            _ = try PaymentRules.validateSale(
                requestedAmount: request.requestedAmount, tipAmount: request.tipAmount, currency: request.currency,
                reference: request.reference, countryCode: request.countryCode, terminal: terminal, minimumAmount: minimumAmount)
        } catch {
            throw PaymentError(error, field: error.field == "requestedAmount" ? amountField : nil)
        }
    }

    package static func refund(_ request: CardPayments.RefundRequest, terminal: TerminalInfo) throws(PaymentError) {
        do {
            _ = try PaymentRules.validateCurrency(request.currency, terminal: terminal)
            try PaymentRules.validateAmount(request.requestedAmount, terminal: terminal)
            try PaymentRules.validateReference(request.reference, terminal: terminal)
        } catch {
            throw PaymentError(error)
        }
    }

    package static func amount(_ amount: Int, terminal: TerminalInfo, field: String, minimumAmount: Int = 1) throws(PaymentError) {
        do { try PaymentRules.validateAmount(amount, terminal: terminal, minimum: minimumAmount) } catch { throw PaymentError(error, field: field) }
    }

    package static func tip(_ tipAmount: Int?, requestedAmount: Int, terminal: TerminalInfo) throws(PaymentError) {
        do { _ = try PaymentRules.validateTip(tipAmount, requestedAmount: requestedAmount, terminal: terminal) } catch { throw PaymentError(error) }
    }

    package static func reference(_ reference: String?, terminal: TerminalInfo) throws(PaymentError) {
        do { try PaymentRules.validateReference(reference, terminal: terminal) } catch { throw PaymentError(error) }
    }

    package static func currency(_ code: String, terminal: TerminalInfo) throws(PaymentError) {
        do { _ = try PaymentRules.validateCurrency(code, terminal: terminal) } catch { throw PaymentError(error) }
    }

    package static func country(_ code: String?, terminal: TerminalInfo) throws(PaymentError) {
        do { try PaymentRules.validateCountry(code, terminal: terminal) } catch { throw PaymentError(error) }
    }
}
