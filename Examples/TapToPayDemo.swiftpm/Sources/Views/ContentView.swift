import SwiftUI
import TapOnMobileSandbox

/// The flow on one screen: each section appears once the one before it is done.
struct ContentView: View {
    @EnvironmentObject private var store: DemoStore
    @State private var showsSettings = false

    var body: some View {
        NavigationStack {
            List {
                Section("Sandbox") {
                    LabeledContent("EU host", value: store.hostAddress)
                    LabeledContent("Tap to Pay", value: store.stage == .unsupported ? "Not supported on this iPhone" : "Supported")
                    if store.stage == .starting {
                        Button("Connect") { Task { await store.start() } }
                            .disabled(store.working)
                    }
                }

                if let message = store.message {
                    Section {
                        Text(message).foregroundStyle(.red).textSelection(.enabled)
                    }
                }

                switch store.stage {
                case .unsupported:
                    Section {
                        Text("isTapToPaySupported() is false: this phone cannot take card payments.")
                    }
                case .starting:
                    EmptyView()
                case .notRegistered:
                    RegistrationView()
                case .loggedOut:
                    LoginSection()
                case .loggedIn:
                    SessionSection()
                }
            }
            .navigationTitle("Tap to Pay demo")
            .toolbar {
                Button("Settings", systemImage: "gear") { showsSettings = true }
            }
            .sheet(isPresented: $showsSettings) { SettingsView() }
            .overlay {
                if store.working { ProgressView() }
            }
        }
    }
}

/// The secure code chosen at registration.
private struct LoginSection: View {
    @EnvironmentObject private var store: DemoStore
    @State private var pin = ""

    var body: some View {
        Section("Log in") {
            SecureField("Secure code", text: $pin)
                .keyboardType(.numberPad)
            Button("Log in") { Task { await store.login(pin: pin) } }
                .disabled(store.working)
        }
    }
}

/// The logged-in terminal: the reader's preparation, payments, history, log out.
private struct SessionSection: View {
    @EnvironmentObject private var store: DemoStore

    var body: some View {
        Section("Terminal") {
            if let terminal = store.terminal {
                LabeledContent("Merchant", value: terminal.merchantName)
                LabeledContent("Terminal", value: terminal.terminalId)
            }
            if let percentage = store.preparePercentage {
                ProgressView("Preparing the reader", value: Double(percentage), total: 100)
            } else if store.readerReady {
                Label("Reader ready", systemImage: "wave.3.right")
            } else {
                Button("Prepare the reader") { store.prepareReader() }
            }
        }
        Section {
            NavigationLink("Take a payment") { PaymentView() }
                .disabled(!store.readerReady)
            NavigationLink("History") { HistoryView() }
        }
        Section {
            Button("Log out") { Task { await store.logout() } }
            Button("Unregister this device", role: .destructive) { Task { await store.unregister() } }
        }
        .disabled(store.working)
    }
}
