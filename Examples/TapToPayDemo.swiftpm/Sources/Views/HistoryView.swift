import SwiftUI
import TapOnMobileSandbox

/// The terminal's transactions, newest first, as the host keeps them.
struct HistoryView: View {
    @EnvironmentObject private var store: DemoStore

    var body: some View {
        List(store.history, id: \.transactionId) { item in
            NavigationLink {
                TransactionView(transactionId: item.transactionId)
            } label: {
                VStack(alignment: .leading) {
                    LabeledContent(
                        "\(item.transactionType.rawValue) \(item.transactionStatus.rawValue)",
                        value: Money.text(item.amount, currency: item.currency?.code ?? store.currency))
                    Text(item.transactionDate.formatted(date: .abbreviated, time: .standard))
                        .font(.caption).foregroundStyle(.secondary)
                }
            }
        }
        .overlay {
            if store.history.isEmpty && !store.working { ContentUnavailableView("No transactions yet", systemImage: "list.bullet") }
        }
        .navigationTitle("History")
        .task { await store.loadHistory() }
        .refreshable { await store.loadHistory() }
    }
}

/// One transaction, with what can still be done to it: the latest sale is reversed within 30
/// minutes (no card); a sale that can no longer be reversed is refunded (the customer taps a card).
struct TransactionView: View {
    @EnvironmentObject private var store: DemoStore
    let transactionId: String
    @State private var detail: TransactionDetail?

    var body: some View {
        Form {
            if let detail {
                Section { TransactionSummary(detail: detail) }
                if detail.transactionType == .AUTH && detail.transactionStatus == .CLEARED {
                    Section {
                        if detail.cancellable {
                            Button("Reverse") { Task { await store.reverse(detail); await reload() } }
                        } else {
                            CustomerPicker()
                            Button("Refund with the customer's card") { Task { await store.refund(detail); await reload() } }
                        }
                    } footer: {
                        Text("""
                            The terminal's latest sale can be reversed for 30 minutes, without a card; an older \
                            one is refunded with the customer's card. Take another payment to refund this one.
                            """)
                    }
                    .disabled(store.working)
                }
                CardActivity()
            } else {
                ProgressView()
            }
        }
        .navigationTitle(transactionId)
        .task { await reload() }
    }

    @MainActor private func reload() async {
        detail = await store.details(of: transactionId)
    }
}
