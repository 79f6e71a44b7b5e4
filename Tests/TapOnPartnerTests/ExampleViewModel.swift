import TapOnPartner
import Foundation

// An app written from the seed's "Exemplo completo" (seeds/004): its ExampleViewModel and delegate,
// its ExampleColors. Changed from the seed: the imports (TapOnPartner here; SwiftUI, whose
// ObservableObject comes from a stand-in off Apple platforms), the appKey given to initTapOn, and
// the sale that cancelPayment cancels (the seed writes a placeholder transactionCode and "1000").

#if !canImport(SwiftUI)
protocol ObservableObject: AnyObject {}
#endif

struct ExampleColors: UIColorPartner {
    var action: UIColor { UIColor.orange }
    var actionLight: UIColor { UIColor.red }
    var actionHigh: UIColor { UIColor.green }
    var actionDark: UIColor { UIColor.gray }
    var brand: UIColor { UIColor.brown }
    var onBrand: UIColor { UIColor.magenta }
    var neutral: UIColor { UIColor.purple }
    var success: UIColor { UIColor.darkGray }
    var warning: UIColor { UIColor.black }
    var error: UIColor { UIColor.systemPink }
    var product: UIColor { UIColor.yellow }
}

class ExampleViewModel: ObservableObject {

    var tapOn: TapOnPayment?

    var rootController: UIViewController? = {
        if let windowScene = UIApplication.shared.connectedScenes.first as? UIWindowScene,
           let window = windowScene.windows.first {
            if let controller = window.rootViewController {
                return controller
            }
        }
        return nil
    }()

    @MainActor
    func initTapOn(appKey: String) {
        let configuration = TapOnPartnerConfiguration(appKey: appKey)
        self.tapOn = TapOnPayment(configuration)
        self.tapOn?.delegate = self
        self.tapOn?.prepareTap()
    }

    @MainActor
    func payment(amount: Double) {
        if let controller = rootController {
            let colors = ExampleColors()
            let payment = TapOnPaymentModel(amount: amount)
            tapOn?.payment(payment,
                           .present(controller),
                           colors)
        }
    }

    @MainActor
    func cancelPayment(transactionCode: String, amount: String) {
        if let controller = rootController {
            let colors = ExampleColors()
            let cancelPayment = TapOnCancelPaymentModel(transactionCode: transactionCode,
                                                        amount: amount,
                                                        userRef: "12345")
            tapOn?.cancelPayment(cancelPayment,
                                 .present(controller),
                                 colors)
        }
    }

    @MainActor
    func logout() {
        tapOn?.logout()
        if let isActive = tapOn?.isActive() {
            print("Ativado? \(isActive)")
        }
    }

    @MainActor
    func activate() {
        if let controller = rootController {
            let colors = ExampleColors()
            tapOn?.activate(.present(controller),
                            colors)
        }
    }
}

extension ExampleViewModel: TapOnPartnerDelegate {

    func activateStatusEvent(successfully: Bool) {
        print("Activate with success: \(successfully)")
    }

    func paymentStatusEvent(_ event: TapOnPartner.TapOnPartnerPaymentEvent) {
        switch event {
        case .approved(let result):
            print("paymentResult: \(result)")
        case .failure(let error):
            print("Error: \(error)")
        }
    }

    func cancelStatusEvent(_ event: TapOnPartner.TapOnPartnerCancelEvent) {
        switch event {
        case .approved(let result):
            print("cancelResult: \(result)")
        case .failure(let error):
            print("Error: \(error)")
        }
    }
}
