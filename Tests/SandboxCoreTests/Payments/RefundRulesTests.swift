import Foundation
import SandboxCore
import SandboxWire
import Testing

@Suite struct RefundRulesTests {
    static let saleDate = Date(timeIntervalSince1970: 1_795_956_502)

    /// A cleared 12.50 EUR sale of EU-T0101, past its reversal window.
    static func sale(
        status: TransactionStatus = .CLEARED, type: TransactionType = .AUTH, terminalId: String = "EU-T0101",
        cancellable: Bool = false, currency: String = "EUR"
    ) -> TransactionDetail {
        TransactionDetail(
            transactionId: "sale-1", transactionStatus: status, transactionType: type, transactionAmount: 1250,
            transactionDate: saleDate, merchantId: "EU-M01", terminalId: terminalId, cancellable: cancellable,
            authId: "123456", cardNumber: "476173******0011", paymentMethod: .CARD,
            currency: TerminalCurrency(Currency(code: currency)!))
    }

    struct Refund: Sendable, CustomTestStringConvertible {
        let name: String
        var amount = 1250
        var currency = "EUR"
        var reference: String?
        var original = RefundRulesTests.sale()
        var terminal = RuleTerminals.counter()
        var code: PaymentRuleError.Code?
        var field: String?
        var testDescription: String { name }
    }

    static let refunds: [Refund] = [
        .init(name: "the whole sale"),
        .init(name: "part of the sale", amount: 1),
        .init(name: "zero", amount: 0, code: .invalidAmount, field: "requestedAmount"),
        .init(name: "negative", amount: -5, code: .invalidAmount, field: "requestedAmount"),
        .init(name: "more than the sale", amount: 1251, code: .refundOverAmount, field: "requestedAmount"),
        .init(name: "Int.max", amount: Int.max, code: .refundOverAmount, field: "requestedAmount"),
        .init(name: "another currency", currency: "USD", code: .currencyMismatch, field: "currency"),
        .init(name: "not a currency", currency: "XXX1", code: .invalidCurrency, field: "currency"),
        .init(name: "a sale in another currency", original: sale(currency: "USD"), code: .currencyMismatch, field: "currency"),
        .init(name: "refunds off", terminal: RuleTerminals.counter(refunds: false), code: .refundNotAllowed, field: nil),
        .init(name: "another terminal's sale", original: sale(terminalId: "EU-T0102"), code: .transactionNotFound,
              field: "transactionId"),
        .init(name: "refunded already", original: sale(status: .REFUNDED), code: .alreadyRefunded, field: "transactionId"),
        .init(name: "a declined sale", original: sale(status: .DECLINED), code: .transactionNotRefundable, field: "transactionId"),
        .init(name: "a refund", original: sale(type: .REFUND), code: .transactionNotRefundable, field: "transactionId"),
        .init(name: "still cancellable", original: sale(cancellable: true), code: .transactionStillCancellable,
              field: "transactionId"),
        .init(name: "a reference too long", reference: String(repeating: "r", count: 51), code: .invalidReference,
              field: "reference"),
    ]

    @Test(arguments: refunds)
    func refundRules(_ refund: Refund) throws {
        let validate = {
            try PaymentRules.validateRefund(
                requestedAmount: refund.amount, currency: refund.currency, reference: refund.reference,
                original: refund.original, terminal: refund.terminal)
        }
        guard let code = refund.code else {
            let amounts = try validate()
            #expect(amounts.requestedAmount == refund.amount)
            #expect(amounts.baseAmount == refund.amount)
            #expect(amounts.tipAmount == nil)
            return
        }
        let error = #expect(throws: PaymentRuleError.self) { try validate() }
        #expect(error?.code == code)
        #expect(error?.field == refund.field)
    }

    @Test func aSaleIsCancellableForThirtyMinutesWhileItIsTheLatest() throws {
        let sale = Self.sale()
        let terminal = RuleTerminals.counter()
        let atTheEdge = Self.saleDate.addingTimeInterval(30 * 60)
        #expect(PaymentRules.isCancellable(sale, isLatestClearedSale: true, at: atTheEdge, terminal: terminal))
        #expect(!PaymentRules.isCancellable(sale, isLatestClearedSale: true, at: atTheEdge.addingTimeInterval(1), terminal: terminal))
        #expect(!PaymentRules.isCancellable(sale, isLatestClearedSale: false, at: Self.saleDate, terminal: terminal))
        #expect(!PaymentRules.isCancellable(
            sale, isLatestClearedSale: true, at: Self.saleDate, terminal: RuleTerminals.counter(reversals: false)))
        #expect(!PaymentRules.isCancellable(
            Self.sale(status: .DECLINED), isLatestClearedSale: true, at: Self.saleDate, terminal: terminal))
    }

    @Test func aSaleWaitingForTheDCCChoiceIsCancellable() throws {
        let terminal = RuleTerminals.counter()
        let waiting = Self.sale(status: .DCC_REQUIRED)
        #expect(PaymentRules.isCancellable(waiting, isLatestClearedSale: false, at: Self.saleDate, terminal: terminal))
        #expect(!PaymentRules.isCancellable(
            waiting, isLatestClearedSale: false, at: Self.saleDate, terminal: RuleTerminals.counter(reversals: false)))
        try PaymentRules.validateReversal(of: waiting, isLatestClearedSale: false, at: Self.saleDate, terminal: terminal)
    }

    @Test func reversalRules() throws {
        let terminal = RuleTerminals.counter()
        try PaymentRules.validateReversal(of: Self.sale(), isLatestClearedSale: true, at: Self.saleDate, terminal: terminal)

        let off = #expect(throws: PaymentRuleError.self) {
            try PaymentRules.validateReversal(
                of: Self.sale(), isLatestClearedSale: true, at: Self.saleDate, terminal: RuleTerminals.counter(reversals: false))
        }
        #expect(off?.code == .reversalNotAllowed)

        let foreign = #expect(throws: PaymentRuleError.self) {
            try PaymentRules.validateReversal(
                of: Self.sale(terminalId: "EU-T0201"), isLatestClearedSale: true, at: Self.saleDate, terminal: terminal)
        }
        #expect(foreign?.code == .transactionNotFound)

        let late = #expect(throws: PaymentRuleError.self) {
            try PaymentRules.validateReversal(
                of: Self.sale(), isLatestClearedSale: true, at: Self.saleDate.addingTimeInterval(1801), terminal: terminal)
        }
        #expect(late?.code == .transactionNotCancellable)
    }
}
