#if !canImport(UIKit)
/// Where UIKit is missing (Linux, macOS), the type the seed's `container:` parameter names, so an
/// app's payment code compiles here as written.
///
/// On iOS the parameter takes UIKit's own `UIViewController`. Like UIKit's, this one belongs to
/// the main actor; it draws nothing: the SDK's screens it would hold are reported to
/// ``SandboxConfiguration/onSDKScreen`` instead (see ``SDKScreen``).
///
/// ```swift
/// @MainActor func getRootViewController() -> UIViewController? { UIViewController() }
/// TapOnMobile.shared.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil,
///                              container: getRootViewController(), paymentSolutionReceiptHandling: false)
/// ```
@MainActor
open class UIViewController {
    public init() {}
}
#endif
