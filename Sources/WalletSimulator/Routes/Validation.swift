import WalletRules
import WalletStorage
import SandboxCore
import SandboxWire

/// The checks of every field that comes in, each a 400 naming the field.
enum Validate {
    static func identifier(_ value: String, field: String) throws -> String {
        guard PlainIdentifier.isValid(value) else {
            throw WalletError.invalid("\(field) must be 1 to 64 letters, digits, '.', '_' or '-'.", field: field)
        }
        return value
    }

    /// Text for people (a merchant's name, a reference): 1 to `limit` characters, no control characters.
    static func text(_ value: String, field: String, limit: Int) throws -> String {
        guard (1...limit).contains(value.count), !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw WalletError.invalid("\(field) must be 1 to \(limit) characters with no control characters.", field: field)
        }
        return value
    }

    static func amount(_ value: Int, field: String = "amount") throws {
        guard (1...999_999_999_999).contains(value) else {
            throw WalletError.invalid("\(field) must be a whole number of minor units from 1 to 999999999999.", field: field, code: .invalidAmount)
        }
    }

    static func order(_ body: WalletProvider.OrderRequest, region: String) throws {
        _ = try identifier(body.orderId, field: "orderId")
        guard body.region == region else {
            throw WalletError.invalid("region must be the Wallet-Region that signed the request (\(region)).", field: "region")
        }
        _ = try identifier(body.merchantId, field: "merchantId")
        _ = try text(body.merchantName, field: "merchantName", limit: 100)
        _ = try identifier(body.terminalId, field: "terminalId")
        try amount(body.amount)
        guard Currency(code: body.currency) != nil, body.currency.allSatisfy(\.isUppercase) else {
            throw WalletError.invalid("currency must be an ISO 4217 code such as EUR.", field: "currency", code: .invalidCurrency)
        }
        guard (1...32).contains(body.brand.utf8.count), body.brand.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }) else {
            throw WalletError.invalid("brand must be 1 to 32 upper-case letters, digits or '_' (ALIPAY).", field: "brand")
        }
        if let name = body.brandFullName { _ = try text(name, field: "brandFullName", limit: 100) }
        if let reference = body.reference { _ = try text(reference, field: "reference", limit: 100) }
        guard (1...86_400).contains(body.expiresInSeconds) else {
            throw WalletError.invalid("expiresInSeconds must be from 1 to 86400.", field: "expiresInSeconds")
        }
    }

    /// `POST /provider/v1/blik/payments`: the order's fields as for a QR order, and the code's form
    /// (6 digits, or 9 with a 4-digit verification code).
    static func blikPayment(_ body: WalletBlik.PaymentRequest, region: String) throws {
        _ = try identifier(body.paymentId, field: "paymentId")
        guard body.region == region else {
            throw WalletError.invalid("region must be the Wallet-Region that signed the request (\(region)).", field: "region")
        }
        _ = try identifier(body.merchantId, field: "merchantId")
        _ = try text(body.merchantName, field: "merchantName", limit: 100)
        _ = try identifier(body.terminalId, field: "terminalId")
        try amount(body.amount)
        guard Currency(code: body.currency) != nil, body.currency.allSatisfy(\.isUppercase) else {
            throw WalletError.invalid("currency must be an ISO 4217 code such as PLN.", field: "currency", code: .invalidCurrency)
        }
        if let reference = body.reference { _ = try text(reference, field: "reference", limit: 100) }
        guard (1...86_400).contains(body.expiresInSeconds) else {
            throw WalletError.invalid("expiresInSeconds must be from 1 to 86400.", field: "expiresInSeconds")
        }
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

    static func declineReason(_ value: String?, field: String = "reason") throws -> APMDeclineReason {
        guard let value, let reason = APMDeclineReason(rawValue: value) else {
            let known = APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", ")
            throw WalletError.invalid("\(field) must be one of \(known).", field: field)
        }
        return reason
    }
}
