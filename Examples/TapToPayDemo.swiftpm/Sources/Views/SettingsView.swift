import SwiftUI

/// Where the sandbox is, and whether this phone pretends to be too old for Tap to Pay.
struct SettingsView: View {
    @EnvironmentObject private var store: DemoStore
    @Environment(\.dismiss) private var dismiss
    @State private var hostAddress = ""
    @State private var pretendsUnsupported = false

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField(DemoStore.defaultHost, text: $hostAddress)
                        .keyboardType(.URL)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                } header: {
                    Text("EU host")
                } footer: {
                    Text("""
                        The Simulator reaches `make run` on this Mac at \(DemoStore.defaultHost). An iPhone needs \
                        the Mac's address on the same Wi-Fi, with the sandbox started as \
                        `make run ARGS="--host 0.0.0.0"`.
                        """)
                }
                Section {
                    Toggle("Pretend to be an iPhone XR", isOn: $pretendsUnsupported)
                } footer: {
                    Text("Tap to Pay on iPhone needs an iPhone 11 or later: isTapToPaySupported() then says no.")
                }
            }
            .navigationTitle("Settings")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Apply") {
                        Task { await store.apply(hostAddress: hostAddress, pretendsUnsupported: pretendsUnsupported) }
                        dismiss()
                    }
                }
            }
            .onAppear {
                hostAddress = store.hostAddress
                pretendsUnsupported = store.pretendsUnsupported
            }
        }
    }
}
