import Foundation
import SandboxCore
import SandboxWire
import Testing

/// Terminals shaped like the shipped ones, built directly so each rule has one switch to flip.
enum RuleTerminals {
    /// EU-T0101-like: limit 10000.00 EUR, tips capped at 50.00 and 15 %, trading in BE, NL, LU.
    static func counter(
        tipEnabled: Bool = true, maxTipAmount: Int? = 5000, maxTipPercentage: Double? = 15,
        permittedCountries: [String]? = ["BE", "NL", "LU"], referenceEnabled: Bool = false,
        referencePattern: String? = nil, refunds: Bool = true, reversals: Bool = true
    ) -> TerminalInfo {
        TerminalInfo(
            terminalId: "EU-T0101", merchantId: "EU-M01", merchantName: "Brasserie", address1: "Rue 1", address2: "",
            isRefundAvailable: refunds, isReversalAvailable: reversals,
            currency: TerminalCurrency(Currency(code: "EUR")!), limitAmount: 1_000_000, decimalDigitCount: 2,
            permittedCountries: permittedCountries, profileId: "prf", dynamicProperties: DynamicProperties(
                rates: tipEnabled ? [5, 10, 15] : [], referencePattern: referencePattern, referenceEnabled: referenceEnabled),
            apmConfig: [], apmEnabled: false, tipEnabled: tipEnabled, maxTipAmount: tipEnabled ? maxTipAmount : nil,
            maxTipPercentage: tipEnabled ? maxTipPercentage : nil, blikEnabled: nil, terminalCode: nil)
    }

    static let invoice = counter(referenceEnabled: true, referencePattern: "^INV-[0-9]{6}$")
}

@Suite struct PaymentRulesTests {
    struct Sale: Sendable, CustomTestStringConvertible {
        let name: String
        var amount = 1000
        var tip: Int?
        var currency = "EUR"
        var reference: String?
        var country: String? = "BE"
        var terminal = RuleTerminals.counter()
        /// nil: accepted.
        var code: PaymentRuleError.Code?
        var field: String?
        var message: String?
        var testDescription: String { name }
    }

    static let sales: [Sale] = [
        // Amount.
        .init(name: "zero", amount: 0, code: .invalidAmount, field: "requestedAmount",
              message: "requestedAmount must be at least 1 (minor units)."),
        .init(name: "negative", amount: -100, code: .invalidAmount, field: "requestedAmount"),
        .init(name: "Int.min", amount: Int.min, code: .invalidAmount, field: "requestedAmount"),
        .init(name: "one cent", amount: 1),
        .init(name: "at the limit", amount: 1_000_000),
        .init(name: "over the limit", amount: 1_000_001, code: .amountOverLimit, field: "requestedAmount",
              message: "requestedAmount 1000001 exceeds the terminal's limit 1000000, tip included."),
        .init(name: "Int.max", amount: Int.max, code: .amountOverLimit, field: "requestedAmount"),
        .init(name: "tip pushes the total over the limit", amount: 1_000_100, tip: 100, code: .amountOverLimit, field: "requestedAmount"),

        // Currency.
        .init(name: "another currency", currency: "USD", code: .currencyMismatch, field: "currency",
              message: "This terminal takes EUR, not USD."),
        .init(name: "not ISO 4217", currency: "EURO", code: .invalidCurrency, field: "currency",
              message: "\"EURO\" is not an ISO 4217 currency code."),
        .init(name: "lower case", currency: "eur", code: .invalidCurrency, field: "currency"),
        .init(name: "currency before amount", amount: 0, currency: "USD", code: .currencyMismatch, field: "currency"),

        // Tips.
        .init(name: "a tip within both caps", amount: 11500, tip: 1500),
        .init(name: "a zero tip where tips are off", tip: 0, terminal: RuleTerminals.counter(tipEnabled: false)),
        .init(name: "tips disabled", amount: 1100, tip: 100, terminal: RuleTerminals.counter(tipEnabled: false),
              code: .tipsNotAllowed, field: "tipAmount", message: "This terminal does not take tips."),
        .init(name: "negative tip", amount: 1000, tip: -1, code: .invalidAmount, field: "tipAmount"),
        .init(name: "tip equal to the amount", amount: 1000, tip: 1000, code: .tipOverLimit, field: "tipAmount",
              message: "tipAmount 1000 must be below requestedAmount 1000, which includes it."),
        .init(name: "tip over the amount cap", amount: 100_000, tip: 5001,
              terminal: RuleTerminals.counter(maxTipPercentage: nil), code: .tipOverLimit, field: "tipAmount",
              message: "tipAmount 5001 exceeds the terminal's maximum tip 5000."),
        .init(name: "tip at the amount cap", amount: 100_000, tip: 5000, terminal: RuleTerminals.counter(maxTipPercentage: nil)),
        // Base 100.00: 15 % is exactly 15.00.
        .init(name: "tip at the percentage cap", amount: 11500, tip: 1500),
        .init(name: "tip one cent over the percentage cap", amount: 11501, tip: 1501, code: .tipOverLimit, field: "tipAmount",
              message: "tipAmount 1501 exceeds 15 % of the base amount 10000."),
        .init(name: "fractional percentage cap", amount: 11251, tip: 1251,
              terminal: RuleTerminals.counter(maxTipPercentage: 12.5), code: .tipOverLimit, field: "tipAmount",
              message: "tipAmount 1251 exceeds 12.5 % of the base amount 10000."),
        .init(name: "fractional percentage cap met exactly", amount: 11250, tip: 1250,
              terminal: RuleTerminals.counter(maxTipPercentage: 12.5)),
        .init(name: "no caps at all", amount: 20000, tip: 10000,
              terminal: RuleTerminals.counter(maxTipAmount: nil, maxTipPercentage: nil)),

        // Reference.
        .init(name: "free text", reference: "Table 7 — Ñoño"),
        .init(name: "fifty characters", reference: String(repeating: "é", count: 50)),
        .init(name: "fifty-one characters", reference: String(repeating: "a", count: 51), code: .invalidReference,
              field: "reference", message: "reference must be at most 50 characters, not 51."),
        .init(name: "empty", reference: "", code: .invalidReference, field: "reference"),
        .init(name: "newline", reference: "INV\n1", code: .invalidReference, field: "reference",
              message: "reference must hold printable characters only."),
        .init(name: "NUL", reference: "INV\u{0}1", code: .invalidReference, field: "reference"),
        .init(name: "DEL", reference: "INV\u{7F}", code: .invalidReference, field: "reference"),
        .init(name: "C1 control", reference: "INV\u{85}", code: .invalidReference, field: "reference"),
        .init(name: "matching the pattern", reference: "INV-000123", terminal: RuleTerminals.invoice),
        .init(name: "not matching the pattern", reference: "INV-12", terminal: RuleTerminals.invoice,
              code: .invalidReference, field: "reference",
              message: "reference \"INV-12\" does not match the terminal's pattern ^INV-[0-9]{6}$."),
        .init(name: "pattern match must cover the whole reference", reference: "123456X",
              terminal: RuleTerminals.counter(referenceEnabled: true, referencePattern: "[0-9]{6}"),
              code: .invalidReference, field: "reference"),
        .init(name: "alternation covers the whole reference", reference: "AB",
              terminal: RuleTerminals.counter(referenceEnabled: true, referencePattern: "A|AB")),
        .init(name: "a pattern with references off is not applied", reference: "anything",
              terminal: RuleTerminals.counter(referenceEnabled: false, referencePattern: "^INV-[0-9]{6}$")),
        .init(name: "no reference where a pattern is set", terminal: RuleTerminals.invoice),

        // Country.
        .init(name: "a permitted country", country: "NL"),
        .init(name: "a permitted country in lower case", country: "lu"),
        .init(name: "a country not permitted", country: "FR", code: .countryNotPermitted, field: "countryCode",
              message: "This terminal may not trade in FR (permitted: BE, NL, LU)."),
        .init(name: "any country where the terminal has no list", country: "JP",
              terminal: RuleTerminals.counter(permittedCountries: nil)),
        .init(name: "no country given", country: nil),
    ]

    @Test(arguments: sales)
    func saleRules(_ sale: Sale) throws {
        let validate = {
            try PaymentRules.validateSale(
                requestedAmount: sale.amount, tipAmount: sale.tip, currency: sale.currency, reference: sale.reference,
                countryCode: sale.country, terminal: sale.terminal)
        }
        guard let code = sale.code else {
            let amounts = try validate()
            #expect(amounts.requestedAmount == sale.amount)
            #expect(amounts.baseAmount == sale.amount - (sale.tip ?? 0))
            #expect(amounts.currency.code == "EUR")
            return
        }
        let error = #expect(throws: PaymentRuleError.self) { try validate() }
        #expect(error?.code == code)
        #expect(error?.field == sale.field)
        if let message = sale.message {
            #expect(error?.message == message)
        }
    }

    @Test func theBaseAmountExcludesTheTip() throws {
        let amounts = try PaymentRules.validateSale(
            requestedAmount: 1201, tipAmount: 150, currency: "EUR", reference: nil, countryCode: "BE",
            terminal: RuleTerminals.counter())
        #expect(amounts.baseAmount == 1051)
        #expect(amounts.tipAmount == 150)
        let noTip = try PaymentRules.validateSale(
            requestedAmount: 1251, tipAmount: 0, currency: "EUR", reference: nil, countryCode: nil,
            terminal: RuleTerminals.counter())
        #expect(noTip.tipAmount == nil)
        #expect(noTip.baseAmount == 1251)
    }

    @Test func codesAreTheContractsAndKnowTheirStatus() {
        #expect(PaymentRuleError.Code.invalidAmount.rawValue == "invalid_amount")
        #expect(PaymentRuleError.Code.tipOverLimit.rawValue == "tip_over_limit")
        #expect(PaymentRuleError.Code.countryNotPermitted.rawValue == "country_not_permitted")
        #expect(PaymentRuleError.Code.refundOverAmount.rawValue == "refund_over_amount")
        #expect(PaymentRuleError.Code.invalidAmount.httpStatus == 400)
        #expect(PaymentRuleError.Code.refundNotAllowed.httpStatus == 403)
        #expect(PaymentRuleError.Code.transactionNotFound.httpStatus == 404)
        #expect(PaymentRuleError.Code.alreadyRefunded.httpStatus == 409)
        let error = PaymentRuleError(.tipsNotAllowed, field: "tipAmount", message: "This terminal does not take tips.")
        #expect(error.description == "tips_not_allowed (tipAmount): This terminal does not take tips.")
    }
}
