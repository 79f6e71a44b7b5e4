import Foundation
import SandboxWire

/// Last transaction, history, count, details, statistics, validation and digital receipts.
extension TapOnMobile {
    /// The last cleared transaction made on this device, from the device's own storage
    /// (deprecated in the seed: prefer the history calls, which ask the host).
    ///
    /// - Returns: The detail, or `transaction(.notFound)` before the first one.
    public func getLastTransaction() async -> Result<TransactionDetail, TapOnMobileError> {
        await with(context) { context in
            do throws(TapOnMobileError) {
                guard let last = try context.store.load().lastTransaction else {
                    return .failure(.transaction(TransactionError(.notFound, message: "No transaction was made on this device yet.")))
                }
                return .success(last)
            } catch {
                return .failure(error)
            }
        }
    }

    /// One page of the terminal's transactions, newest first.
    ///
    /// - Parameters:
    ///   - page: From 1.
    ///   - itemsPerPage: 1 to 200.
    ///   - dateFrom: ISO 8601 (`2026-11-29T10:00:00.0+01:00`); empty means no lower bound.
    ///   - dateTo: ISO 8601; empty means no upper bound.
    ///   - filterStatus: `TransactionStatus` raw values; empty means every status.
    ///   - filterType: `TransactionType` raw values; empty means both.
    ///   - filterPaymentMethod: `PaymentMethod` raw values; empty means every method.
    public func fetchTransactionsHistory(
        page: Int, itemsPerPage: Int, dateFrom: String, dateTo: String, filterStatus: [String], filterType: [String],
        filterPaymentMethod: [String] = [PaymentMethod.CARD.rawValue, PaymentMethod.QRCODE.rawValue, PaymentMethod.BLIK.rawValue]
    ) async -> Result<TransactionsHistoryPage, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            await send(
                loggedIn.client, "GET", "/terminal/v1/transactions",
                query: Self.filters(page, itemsPerPage, dateFrom, dateTo, filterStatus, filterType, filterPaymentMethod),
                bearer: loggedIn.token, as: TransactionsHistoryPage.self)
        }
    }

    /// How many of the terminal's transactions match the filters (same filters as the history).
    ///
    /// The default `filterPaymentMethod` is the seed's, without BLIK (the history's includes it):
    /// an app that counts BLIK payments names the methods.
    public func fetchTransactionsCount(
        page: Int, itemsPerPage: Int, dateFrom: String, dateTo: String, filterStatus: [String], filterType: [String],
        filterPaymentMethod: [String] = [PaymentMethod.CARD.rawValue, PaymentMethod.QRCODE.rawValue]
    ) async -> Result<TransactionsCount, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            await send(
                loggedIn.client, "GET", "/terminal/v1/transactions/count",
                query: Self.filters(page, itemsPerPage, dateFrom, dateTo, filterStatus, filterType, filterPaymentMethod),
                bearer: loggedIn.token, as: TransactionsCount.self)
        }
    }

    /// One transaction of this terminal, by id or by a reference unique on the terminal.
    ///
    /// - Parameters:
    ///   - transactionId: The id; this or `reference` must be given.
    ///   - reference: The merchant's reference.
    ///   - terminalId: When given, the transaction must belong to it.
    public func fetchTransactionDetails(
        transactionId: String? = nil, reference: String? = nil, terminalId: String? = nil
    ) async -> Result<TransactionDetail, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            var query: [(String, String)] = []
            if let transactionId { query.append(("transactionId", transactionId)) }
            if let reference { query.append(("reference", reference)) }
            if let terminalId { query.append(("terminalId", terminalId)) }
            return await send(
                loggedIn.client, "GET", "/terminal/v1/transactions/details", query: query, bearer: loggedIn.token,
                as: TransactionDetail.self)
        }
    }

    /// Approved sales summed per UTC day or per card brand, between two instants.
    public func getTransactionsStatistics(
        fromDate: Date, toDate: Date, statisticsType: TransactionsStatisticsType
    ) async -> Result<[TransactionsStatistics], TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            return await send(
                loggedIn.client, "GET", "/terminal/v1/statistics",
                query: [
                    // Milliseconds kept: a day's end is 23:59:59.999, and whole seconds would drop its last second.
                    ("fromDate", WireTime.string(from: fromDate)), ("toDate", WireTime.string(from: toDate)),
                    ("statisticsType", statisticsType.rawValue),
                ],
                bearer: loggedIn.token, as: TransactionsStatisticsList.self
            ).map(\.statistics)
        }
    }

    /// Whether a payment, refund or reversal would be accepted now: the session lasts more than a
    /// minute, the device stands in a permitted country, the amount is within the terminal's
    /// limit, and the terminal allows the operation.
    ///
    /// - Parameters:
    ///   - transactionServiceType: What to check.
    ///   - requestedAmount: Required for payments and refunds.
    ///   - validate: The reference the transaction will carry, if any.
    public func validateTransaction(
        transactionServiceType: TransactionServiceType, requestedAmount: Int?, validate: String?
    ) async -> Result<Success, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            let country = await currentCountry()
            return await send(
                loggedIn.client, "POST", "/terminal/v1/transactions/validate",
                body: ValidateRequest(
                    transactionServiceType: transactionServiceType.rawValue, requestedAmount: requestedAmount, countryCode: country,
                    reference: validate),
                bearer: loggedIn.token, as: NoContent.self
            ).map { _ in Success() }
        }
    }

    /// A digital receipt of one of the terminal's transactions: a URL for a QR code, or an e-mail.
    ///
    /// - Parameters:
    ///   - transactionId: The transaction.
    ///   - receiptType: ``ReceiptType/qrCode`` or ``ReceiptType/email``.
    ///   - email: The address, for e-mail receipts.
    /// - Returns: `GENERATED` with the URL, or `SENT`.
    public func getDigitalReceipt(
        from transactionId: String, receiptType: ReceiptType, email: String?
    ) async -> Result<ReceiptConfirmation, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            return await send(
                loggedIn.client, "POST", "/terminal/v1/transactions/\(TerminalClient.encode(transactionId))/receipt",
                body: PaymentBodies.Receipt(receiptType: receiptType.rawValue, email: email), bearer: loggedIn.token, as: ReceiptConfirmation.self)
        }
    }

    /// The history's query: empty dates and lists are left out (no filter).
    private static func filters(
        _ page: Int, _ itemsPerPage: Int, _ dateFrom: String, _ dateTo: String, _ status: [String], _ type: [String],
        _ paymentMethod: [String]
    ) -> [(String, String)] {
        var query = [("page", String(page)), ("itemsPerPage", String(itemsPerPage))]
        if !dateFrom.isEmpty { query.append(("dateFrom", dateFrom)) }
        if !dateTo.isEmpty { query.append(("dateTo", dateTo)) }
        if !status.isEmpty { query.append(("status", status.joined(separator: ","))) }
        if !type.isEmpty { query.append(("type", type.joined(separator: ","))) }
        if !paymentMethod.isEmpty { query.append(("paymentMethod", paymentMethod.joined(separator: ","))) }
        return query
    }
}
