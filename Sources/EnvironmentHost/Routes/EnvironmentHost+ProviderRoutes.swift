import SandboxHTTP
import SandboxWire

/// The provider surface (docs/qr-payments.md, "Host and wallet"): what the wallet simulator, as
/// the QR wallet provider, tells the host. Signed with the region's wallet secret, no session.
extension EnvironmentHost {
    static func addProviderRoutes(to router: inout Router, _ qr: QRPayments, courier: WalletCourier) {
        router.post("/provider/v1/notifications") { request in
            try qr.notify(headers: request.headers, body: request.body) {
                try request.decode(WalletProvider.Notification.self)
            }
            courier.wake()
            return Response(status: 204)
        }
    }
}
