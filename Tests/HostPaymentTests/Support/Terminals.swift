import Foundation
import SandboxTestSupport
import Testing

/// The terminals the payment tests need, picked from merchants.json by their switches.
extension Host {
    /// Tips on, refunds and reversals on, auto-login, no reference pattern (EU-T0101).
    func counter(sourceLocation: SourceLocation = #_sourceLocation) throws -> TerminalFixture {
        try terminal("with tips, refunds, reversals and auto-login", sourceLocation: sourceLocation) {
            $0.tips.enabled && $0.refundAvailable && $0.reversalAvailable && $0.autoLogin && $0.reference.pattern == nil
                && $0.permittedCountries == nil
        }
    }

    /// Another auto-login terminal with refunds and reversals, not `other` (EU-T0202).
    func second(besides other: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TerminalFixture {
        try terminal("besides \(other) with auto-login", sourceLocation: sourceLocation) {
            $0.id != other && $0.autoLogin && $0.refundAvailable && $0.reversalAvailable && $0.reference.pattern == nil
        }
    }

    /// Refunds off (EU-T0102, also the low limit).
    func refundsOff(sourceLocation: SourceLocation = #_sourceLocation) throws -> TerminalFixture {
        try terminal("with refunds off", sourceLocation: sourceLocation) { !$0.refundAvailable }
    }

    /// Reversals off (EU-T0103, also permitted countries).
    func reversalsOff(sourceLocation: SourceLocation = #_sourceLocation) throws -> TerminalFixture {
        try terminal("with reversals off", sourceLocation: sourceLocation) { !$0.reversalAvailable && $0.refundAvailable }
    }

    /// A reference pattern (EU-T0201).
    func patterned(sourceLocation: SourceLocation = #_sourceLocation) throws -> TerminalFixture {
        try terminal("with a reference pattern", sourceLocation: sourceLocation) {
            $0.reference.enabled && $0.reference.pattern != nil
        }
    }
}

/// The 37 keys of the seed's TransactionDetail.
let transactionDetailKeys: Set<String> = [
    "transactionId", "transactionStatus", "transactionType", "transactionAmount", "tipAmount", "transactionDate",
    "merchantId", "terminalId", "cancellable", "applicationLabel", "cardType", "expiryDate", "authId", "AID",
    "cardNumber", "responseCode", "responseMsg", "CID", "applicationCryptogram", "externalID", "retrievalRefNum",
    "refundedTransactionId", "refundedDate", "refundedMaskedPan", "isReversalAvailable", "paymentMethod", "refundable",
    "ref1", "ref2", "currency", "dccStatus", "dccAmount", "dccCurrency", "dccExchangeRate", "dccMarkup",
    "dccEcbIndicator", "transactionRetry",
]

/// Expects every key of the seed's TransactionDetail (`null` allowed) and no other.
func expectDetailShape(_ reply: HTTPReply, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let keys = Set(reply.object.keys)
    let missing = transactionDetailKeys.subtracting(keys).sorted()
    let extra = keys.subtracting(transactionDetailKeys).sorted()
    #expect(
        missing.isEmpty && extra.isEmpty,
        "\(step): TransactionDetail keys differ from the seed's 37: missing \(missing), extra \(extra): \(reply)",
        sourceLocation: sourceLocation)
}

/// The code of a currency field: the seed's currency object `{code, …}`, or a bare code.
func currencyCode(_ value: Any?) -> String? {
    if let text = value as? String { return text }
    return (value as? [String: Any])?["code"] as? String
}
