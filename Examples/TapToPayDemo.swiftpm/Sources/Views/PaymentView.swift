import SwiftUI
import TapOnMobileSandbox

/// A sale: the amount, what the customer will do at the card screen, then the card screen's steps
/// and the result.
struct PaymentView: View {
    @EnvironmentObject private var store: DemoStore
    @State private var amountText = "12.50"

    var body: some View {
        Form {
            Section {
                TextField("Amount", text: $amountText)
                    .keyboardType(.decimalPad)
                CustomerPicker()
                Button("Charge \(amount.map { Money.text($0, currency: store.currency) } ?? "")") {
                    guard let amount else { return }
                    Task { await store.pay(amount: amount) }
                }
                .disabled(amount == nil || store.working || !store.readerReady)
            } footer: {
                Text("""
                    The sandbox answers as Worldline's does: 42.05 is declined (do not honour), 42.51 for \
                    insufficient funds, 42.55 for a wrong PIN; any other amount is approved.
                    """)
            }
            CardActivity()
        }
        .navigationTitle("Payment")
    }

    private var amount: Int? { Money.minorUnits(from: amountText) }
}

/// Chooses what the customer does at the next card screen (the sandbox's simulated reader).
struct CustomerPicker: View {
    @EnvironmentObject private var store: DemoStore

    var body: some View {
        Picker("Customer", selection: Binding(get: { store.customer }, set: { store.choose($0) })) {
            ForEach(Customer.allCases) { Text($0.title).tag($0) }
        }
    }
}

/// The steps of the running or last card transaction, and its result.
struct CardActivity: View {
    @EnvironmentObject private var store: DemoStore

    var body: some View {
        if !store.cardSteps.isEmpty {
            Section("Card screen") {
                ForEach(Array(store.cardSteps.enumerated()), id: \.offset) { Text($0.element) }
            }
        }
        if let detail = store.cardResult {
            Section("Result") {
                TransactionSummary(detail: detail)
                NavigationLink("Details") { TransactionView(transactionId: detail.transactionId) }
            }
        }
    }
}

/// What a receipt shows first.
struct TransactionSummary: View {
    let detail: TransactionDetail

    var body: some View {
        LabeledContent(detail.transactionType.rawValue, value: detail.transactionStatus.rawValue)
        LabeledContent("Amount", value: Money.text(detail.transactionAmount, currency: detail.currency?.code ?? "EUR"))
        LabeledContent("Card", value: "\(detail.cardType ?? "") \(detail.cardNumber)")
        if let code = detail.responseCode {
            LabeledContent("Response", value: "\(code) \(detail.responseMsg ?? "")")
        }
    }
}
