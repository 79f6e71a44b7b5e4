import HostRules
import HostStorage
import SandboxHTTP
import SandboxWire

/// The back office's view of every terminal's transactions (the portal's Transactions and
/// Statistics pages): `GET /backoffice/v1/transactions`, `…/transactions.csv`,
/// `…/transactions/{transactionId}` and `GET /backoffice/v1/statistics`.
extension EnvironmentHost {
    static func addBackOfficeTransactionRoutes(to router: inout Router, _ payments: CardPayments, key: String) {
        @Sendable func filter(_ query: [String: String]) throws -> TransactionRepository.BackOfficeFilter {
            func scope(_ name: String) throws -> String? {
                try query[name].flatMap { $0.isEmpty ? nil : try Validate.identifier($0, field: "query.\(name)") }
            }
            return TransactionRepository.BackOfficeFilter(
                merchant: try scope("merchantId"), terminal: try scope("terminalId"), history: try CardPayments.HistoryFilter(query: query))
        }
        router.group("/backoffice/v1", middleware: backOfficeKey(key)) { backOffice in
            backOffice.get("/transactions") { request, _ in
                .json(try payments.backOfficeTransactions(try filter(request.query)))
            }
            backOffice.get("/transactions.csv") { request, _ in
                .text(try payments.backOfficeCSV(try filter(request.query)), contentType: "text/csv; charset=utf-8")
            }
            backOffice.get("/transactions/{transactionId}") { request, _ in
                .json(try payments.backOfficeTransaction(try Validate.identifier(request.parameter("transactionId"), field: "transactionId")))
            }
            backOffice.get("/statistics") { request, _ in
                let (from, to, type) = try statisticsQuery(request.query)
                let scope = try filter(request.query.filter { $0.key == "merchantId" || $0.key == "terminalId" })
                return .json(
                    TransactionsStatisticsList(
                        statistics: try payments.backOfficeStatistics(
                            merchant: scope.merchant, terminal: scope.terminal, from: from, to: to, type: type)))
            }
        }
    }
}
