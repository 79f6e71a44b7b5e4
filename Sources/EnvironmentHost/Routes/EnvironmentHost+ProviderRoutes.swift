import HostRules
import HostStorage
import SandboxHTTP
import SandboxWire

/// The provider surface (docs/qr-payments.md, "Host and wallet"): what the wallet simulator, as
/// the QR wallet provider, tells the host. Signed with the region's wallet secret, no session.
extension EnvironmentHost {
    static func addProviderRoutes(to router: inout Router, _ apm: APMPayments, courier: WalletCourier) {
        // Deferred: verified and decoded on the polling thread, answered once the write is durable.
        router.post("/provider/v1/notifications", deferred: { request, reply in
            try apm.notify(headers: request.headers, body: request.body, decode: { try request.decode(WalletProvider.Notification.self) }) {
                outcome in
                // The courier only when the write may owe the wallet a call (a deadline applied on the way).
                if (try? outcome.get()) != false { courier.wake() }
                reply { outcome.map { _ in Response(status: 204) } }
            }
        })
    }
}
