import WalletRules
import WalletStorage
import SandboxCore
import SandboxWire

/// The wallet's own checks of the requests that come in, each a 400 naming the field.
extension Validate {
    static func order(_ body: WalletProvider.OrderRequest, region: String) throws {
        _ = try identifier(body.orderId, field: "orderId")
        try payment(
            region: body.region, signedBy: region, merchantId: body.merchantId, merchantName: body.merchantName,
            terminalId: body.terminalId, amount: body.amount, currency: body.currency, reference: body.reference,
            expiresInSeconds: body.expiresInSeconds, currencyExample: "EUR")
        guard (1...32).contains(body.brand.utf8.count), body.brand.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }) else {
            throw FieldError("brand must be 1 to 32 upper-case letters, digits or '_' (ALIPAY).", field: "brand")
        }
        if let name = body.brandFullName { _ = try text(name, field: "brandFullName", limit: 100) }
    }

    /// `POST /provider/v1/blik/payments`: the order's fields as for a QR order, and the code's form
    /// (6 digits, or 9 with a 4-digit verification code).
    static func blikPayment(_ body: WalletBlik.PaymentRequest, region: String) throws {
        _ = try identifier(body.paymentId, field: "paymentId")
        try payment(
            region: body.region, signedBy: region, merchantId: body.merchantId, merchantName: body.merchantName,
            terminalId: body.terminalId, amount: body.amount, currency: body.currency, reference: body.reference,
            expiresInSeconds: body.expiresInSeconds, currencyExample: "PLN")
        guard [6, 9].contains(body.payCode.count), body.payCode.allSatisfy(\.isASCIIDigit) else {
            throw WalletError.blikCodeInvalid("payCode must be 6 or 9 digits.", field: "payCode")
        }
        switch (body.payCode.count, body.verificationCode) {
        case (9, nil):
            throw WalletError.blikCodeInvalid("A 9-digit payCode needs its verificationCode.", field: "verificationCode")
        case (9, let verification?):
            guard verification.count == 4, verification.allSatisfy(\.isASCIIDigit) else {
                throw WalletError.blikCodeInvalid("verificationCode must be 4 digits.", field: "verificationCode")
            }
        case (_, nil):
            break
        default:
            throw WalletError.blikCodeInvalid("A 6-digit payCode takes no verificationCode.", field: "verificationCode")
        }
    }

    /// What a QR order and a BLIK payment both carry.
    private static func payment(
        region: String, signedBy: String, merchantId: String, merchantName: String, terminalId: String, amount: Int,
        currency: String, reference: String?, expiresInSeconds: Int, currencyExample: String
    ) throws(FieldError) {
        guard region == signedBy else {
            throw FieldError("region must be the Wallet-Region that signed the request (\(signedBy)).", field: "region")
        }
        _ = try identifier(merchantId, field: "merchantId")
        _ = try text(merchantName, field: "merchantName", limit: 100)
        _ = try identifier(terminalId, field: "terminalId")
        try self.amount(amount)
        guard Currency(code: currency) != nil, currency.allSatisfy(\.isUppercase) else {
            throw FieldError("currency must be an ISO 4217 code such as \(currencyExample).", field: "currency", code: .invalidCurrency)
        }
        if let reference { _ = try text(reference, field: "reference", limit: 100) }
        guard (1...86_400).contains(expiresInSeconds) else {
            throw FieldError("expiresInSeconds must be from 1 to 86400.", field: "expiresInSeconds")
        }
    }

    static func declineReason(_ value: String?, field: String = "reason") throws -> APMDeclineReason {
        guard let value, let reason = APMDeclineReason(rawValue: value) else {
            let known = APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", ")
            throw FieldError("\(field) must be one of \(known).", field: field)
        }
        return reason
    }
}
