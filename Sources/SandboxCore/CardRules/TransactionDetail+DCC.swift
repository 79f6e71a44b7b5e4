import SandboxWire

extension TransactionDetail {
    /// Fills the DCC fields from a quote: amount, currency, base rate, markup and ECB indicator.
    /// ``TransactionDetail/dccStatus`` is left to the caller (`OFFERED` while the cardholder chooses).
    public mutating func apply(_ quote: DCCQuote) {
        dccAmount = quote.amount
        dccCurrency = TerminalCurrency(quote.currency)
        dccExchangeRate = quote.exchangeRateValue
        dccMarkup = quote.markupPercentValue
        dccEcbIndicator = quote.ecbIndicator
    }
}
