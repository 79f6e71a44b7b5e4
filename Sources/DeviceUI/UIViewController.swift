#if !canImport(UIKit)
/// Where UIKit is missing (Linux, macOS), the type the seeds' view-controller parameters name
/// (TapOnMobile's `container:`, MONEI's `presentEducation(from:)`), so an app's code compiles
/// here as written. The device libraries re-export it, so `import TapOnMobileSandbox` or
/// `import MoneiTapToPay` brings it along.
///
/// On iOS the parameters take UIKit's own `UIViewController`. Like UIKit's, this one belongs to
/// the main actor; it draws nothing: the screens an SDK would show on it are reported to the
/// library's sandbox configuration instead (TapOnMobile's `onSDKScreen`).
///
/// ```swift
/// @MainActor func getRootViewController() -> UIViewController? { UIViewController() }
/// TapOnMobile.shared.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil,
///                              container: getRootViewController(), paymentSolutionReceiptHandling: false)
/// ```
@preconcurrency @MainActor
open class UIViewController {
    public init() {}
}
#endif
