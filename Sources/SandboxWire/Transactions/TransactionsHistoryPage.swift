/// One page of history, newest first, as `GET /terminal/v1/transactions` answers it:
/// `{items, page, itemsPerPage, total}`. A collection of its items, so the seed's
/// `history.append(contentsOf: page)` works.
///
/// ```swift
/// if case .success(let page) = await sdk.fetchTransactionsHistory(page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "",
///                                                                   filterStatus: [], filterType: []) {
///     print("\(page.count) of \(page.total)")
/// }
/// ```
public struct TransactionsHistoryPage: Codable, Sendable, Equatable, Hashable, RandomAccessCollection {
    public var items: [TransactionHistoryItem]
    /// The page number asked for, from 1.
    public var page: Int
    public var itemsPerPage: Int
    /// How many transactions match the filters over all pages.
    public var total: Int

    public init(items: [TransactionHistoryItem], page: Int, itemsPerPage: Int, total: Int) {
        self.items = items
        self.page = page
        self.itemsPerPage = itemsPerPage
        self.total = total
    }

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> TransactionHistoryItem { items[position] }
}
