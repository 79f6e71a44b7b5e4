/// Where Dynamic Currency Conversion stands on a transaction, as `TransactionDetail.dccStatus`.
///
/// The seed names the type but not its cases, so the sandbox chose three:
/// `OFFERED` while the transaction is `DCC_REQUIRED` (the cardholder sees the quote),
/// `ACCEPTED` when the cardholder chose to pay in the card's currency, and `DECLINED` when
/// they chose the terminal's. A transaction never offered DCC has `dccStatus: null`.
public enum DCCStatus: String, Codable, Sendable, Equatable, CaseIterable {
    /// Quoted, waiting for the cardholder's choice.
    case OFFERED
    /// The cardholder pays in the card's currency at the quoted amount.
    case ACCEPTED
    /// The cardholder pays in the terminal's currency.
    case DECLINED
}
