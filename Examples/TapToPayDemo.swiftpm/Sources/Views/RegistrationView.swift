import SwiftUI

/// The merchant-portal registration: the app shows a challenge code, the merchant confirms it in
/// the portal, and types back the portal's back-office code with the secure code to log in with.
struct RegistrationView: View {
    @EnvironmentObject private var store: DemoStore
    @State private var backofficeCode = ""
    @State private var pin = ""

    var body: some View {
        Section("1. Register this iPhone") {
            if let code = store.challengeCode {
                Text(code)
                    .font(.largeTitle.monospaced())
                    .textSelection(.enabled)
            } else {
                Button("Get a challenge code") { Task { await store.beginRegistration() } }
                    .disabled(store.working)
            }
        }
        if store.challengeCode != nil {
            Section("2. Confirm it in the portal") {
                Text("""
                    Open \(store.portalAddress) on the Mac, choose **Register a device**, type the code into \
                    **Code**, press **Find registration**, then **Confirm registration**. The portal shows a \
                    back-office code.
                    """)
            }
            Section("3. Type back the portal's code") {
                TextField("Back-office code, such as EU-483920", text: $backofficeCode)
                    .textInputAutocapitalization(.characters)
                    .autocorrectionDisabled()
                SecureField("Secure code to log in with (4 to 8 digits)", text: $pin)
                    .keyboardType(.numberPad)
                Button("Complete the registration") {
                    Task { await store.endRegistration(backofficeCode: backofficeCode, pin: pin) }
                }
                .disabled(store.working || backofficeCode.isEmpty)
                Button("Start again") { Task { await store.beginRegistration() } }
                    .disabled(store.working)
            }
        }
    }
}
