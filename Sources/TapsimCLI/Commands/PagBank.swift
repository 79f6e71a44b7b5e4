import CommandLineSupport
import Foundation
import SandboxWire
import SimulatedReader
import TapOnMobileSandbox
import TapOnPartner

/// `tapsim pagbank activate|pay|cancel|status|logout`: PagBank's Tap On (`TapOnPartner`) on the
/// command line, against the PAGBANK host of `sandbox up` (docs/pagbank.md).
///
/// Each invocation is one launch of the partner app: it makes its `TapOnPayment` with the partner's
/// `appKey`, asks for one operation, and prints what the delegate was told. Tap On keeps its
/// activation in the device folder (`tapon.json`, and the TapOnMobile device's `device.json`), so
/// `activate` once, then `pay` and `cancel` as separate invocations.
enum PagBank {
    static let region = "PAGBANK"

    static let activate = Command(
        "pagbank activate", "TapOnPayment.activate: the partner's appKey buys a terminal of its seller; the device registers and logs in.",
        region: region,
        options: [
            Opt.appKey.help("The partner app's appKey (default: the region's first partner in sandbox-data/merchants.json)."),
            Opt.seller.help("The seller the activation signs in as (PAGBANK-M01, PAGBANK-M02; default: the partner's first)."),
        ],
        examples: [
            "tapsim pagbank activate",
            "tapsim pagbank activate --app-key tapon_test_not_a_partner   # an unknown appKey: activateStatusEvent(successfully: false), exit 12",
        ]
    ) { context, options in
        let delegate = try await context.launchTapOn(appKey: options[Opt.appKey], seller: options[Opt.seller])
        await MainActor.run { delegate.tapOn.activate(.present(UIViewController())) }
        await delegate.tapOn.waitUntilIdle()
        guard await delegate.activated == true else {
            throw Failure(
                json: ["category": "pagbank", "kind": "activation", "code": "activation_failed",
                       "message": "Tap On was not activated: the appKey is no partner's, or its seller has no free terminal.", "exitCode": 12],
                line: "pagbank.activation [activation_failed]: Tap On was not activated: the appKey is no partner's, or its seller has no free terminal. (exit 12)",
                exitCode: 12)
        }
        return Report([("activated", true)], lines: ["Activated: Tap On is on on this device (isActive() true)."])
    }

    static let pay = Command(
        "pagbank pay", "TapOnPayment.payment: a sale (R$ 1,00 to R$ 10.000,00), tapsim's amount in centavos made the SDK's reais; prints the TapOnPaymentResult.",
        region: region,
        options: [
            Opt.amount.help("BRL in centavos, as every tapsim amount (1000 is R$ 10,00); 42XX picks the issuer's answer (4205 declines)."),
            Opt.card.help("The test card the customer taps (cards.json; default: the Brazilian one, visa-br)."),
        ],
        examples: [
            "tapsim pagbank activate && tapsim pagbank pay --amount 1000",
            "tapsim pagbank pay --amount 2550 --card mc-br",
            "tapsim pagbank pay --amount 4205   # declined by the issuer (paymentStatusEvent .failure 05): DECLINED, still exit 0",
            "tapsim pagbank pay --amount 50   # below R$ 1,00: amount_below_minimum, exit 17",
        ]
    ) { context, options in
        // tapsim's amounts are minor units; Tap On's model takes reais.
        let centavos = try options.required(Opt.amount)
        let amount = Double(centavos) / 100
        let delegate = try await context.launchTapOn(card: try context.card(named: options[Opt.card], country: "BR"))
        await MainActor.run { delegate.tapOn.payment(TapOnPaymentModel(amount: amount), .present(UIViewController())) }
        await delegate.tapOn.waitUntilIdle()
        switch await delegate.payment {
        case .approved(let result)?:
            let fields: [(String, JSONValue)] = [
                ("transactionCode", JSONValue(result.transactionCode)), ("responseMessage", .string(result.responseMessage)),
                ("originalAmount", JSONValue(result.originalAmount)), ("amount", .string(result.amount)), ("installments", .int(result.installments)),
                ("paymentType", .string(result.paymentType)), ("cardBrand", JSONValue(result.cardBrand)), ("holder", .string(result.holder)),
                ("authDate", .string(result.authDate)), ("authCode", JSONValue(result.authCode)), ("userRef", JSONValue(result.userRef)),
            ]
            return Report(
                fields, lines: ["Approved: \(result.transactionCode ?? "?") \(Format.amount(centavos, code: "BRL")) \(result.cardBrand ?? "") \(result.holder) (\(result.paymentType)), auth \(result.authCode ?? "-")"])
        case .failure(let error)? where Failure.isIssuerDecline(error):
            // A declined card is an answer, as for every tapsim payment (exit 0); Tap On reports it as a failure.
            return Report(
                [("status", "DECLINED"), ("code", .string(error.code)), ("message", .string(error.message)), ("amount", .string(String(centavos)))],
                lines: ["Declined \(Format.amount(centavos, code: "BRL")): paymentStatusEvent .failure \(error.code), \(error.message)"])
        case .failure(let error)?:
            throw Failure(pagbank: error)
        case nil:
            throw Failure(pagbank: TapOnPartnerError(code: "incomplete", message: "Tap On reported no payment event."))
        }
    }

    static let cancel = Command(
        "pagbank cancel", "TapOnPayment.cancelPayment: the whole sale back (its transactionCode and amount in centavos); prints the TapOnCancelResult.",
        region: region,
        options: [
            Opt.transactionCode.help("The sale's transactionCode."),
            Opt.amount.help("The sale's whole amount in centavos, as every tapsim amount (1000 is R$ 10,00)."),
            Opt.userRef.help("The partner's own reference for the cancel."),
            Opt.card.help("The card the customer taps if the sale can only be refunded (default: visa-br)."),
        ],
        examples: [
            #"tapsim pagbank cancel --transaction "$(tapsim --field transactionCode pagbank pay --amount 1000)" --amount 1000"#,
            #"tapsim pagbank cancel --transaction "$(tapsim --field transactionCode pagbank pay --amount 1000)" --amount 999   # not the sale's amount: amount_mismatch, exit 17"#,
        ]
    ) { context, options in
        let code = try options.required(Opt.transactionCode)
        let amount = String(try options.required(Opt.amount))
        let delegate = try await context.launchTapOn(card: try context.card(named: options[Opt.card], country: "BR"))
        let model = TapOnCancelPaymentModel(transactionCode: code, amount: amount, userRef: options[Opt.userRef])
        await MainActor.run { delegate.tapOn.cancelPayment(model, .present(UIViewController())) }
        await delegate.tapOn.waitUntilIdle()
        switch await delegate.cancel {
        case .approved(let result)?:
            return Report(
                [("amount", .string(result.amount)), ("refCode", .string(result.refCode))],
                lines: ["Cancelled: \(code), \(Int(result.amount).map { Format.amount($0, code: "BRL") } ?? result.amount) back, ref \(result.refCode)"])
        case .failure(let error)?:
            throw Failure(pagbank: error)
        case nil:
            throw Failure(pagbank: TapOnPartnerError(code: "incomplete", message: "Tap On reported no cancel event."))
        }
    }

    static let status = Command(
        "pagbank status", "TapOnPayment.isActive: whether Tap On is activated on this device.", region: region,
        examples: ["tapsim --json pagbank status"]
    ) { context, _ in
        let delegate = try await context.launchTapOn(prepare: false)
        let active = await MainActor.run { delegate.tapOn.isActive() }
        return Report([("active", .bool(active))], lines: [active ? "Tap On is active on this device." : "Tap On is not active on this device."])
    }

    static let logout = Command(
        "pagbank logout", "TapOnPayment.logout: Tap On ends on this device (isActive() false); the terminal is freed.", region: region,
        examples: ["tapsim pagbank logout"]
    ) { context, _ in
        let delegate = try await context.launchTapOn(prepare: false)
        let active = await MainActor.run {
            delegate.tapOn.logout()
            return delegate.tapOn.isActive()
        }
        await delegate.tapOn.waitUntilIdle()
        return Report([("active", .bool(active))], lines: ["Logged out: Tap On is off on this device."])
    }
}

/// What Tap On told the app in one invocation.
@MainActor
final class TapOnRecorder: TapOnPartnerDelegate {
    let tapOn: TapOnPayment
    private(set) var activated: Bool?
    private(set) var payment: TapOnPartnerPaymentEvent?
    private(set) var cancel: TapOnPartnerCancelEvent?

    init(_ tapOn: TapOnPayment) {
        self.tapOn = tapOn
    }

    func activateStatusEvent(successfully: Bool) { activated = successfully }
    func paymentStatusEvent(_ event: TapOnPartnerPaymentEvent) { payment = event }
    func cancelStatusEvent(_ event: TapOnPartnerCancelEvent) { cancel = event }
}

extension VendorContext {
    /// Launches the partner app: a `TapOnPayment` on this device folder and host, the customer
    /// tapping `card`, its delegate recording; `prepareTap()` unless `prepare` is false.
    func launchTapOn(appKey: String? = nil, seller: String? = nil, card: TestCard? = nil, prepare: Bool = true) async throws -> TapOnRecorder {
        let key: String
        if let appKey {
            key = appKey
        } else {
            guard let first = try sandboxData().partnerAppKeys.first else {
                throw UsageError("sandbox-data/merchants.json gives \(region) no partner app: name one with --app-key")
            }
            key = first
        }
        var sandbox = TapOnPartnerSandbox()
        sandbox.device = SandboxConfiguration(
            endpointOverrides: [region: host], endpointsFile: endpoints.file, deviceDirectory: deviceDirectory, clock: readerClock,
            cardScripts: { _ in card.map { .tap($0) } }, location: .authorized(country: "BR", fixAfter: 0))
        sandbox.sellerId = seller
        TapOnPartnerSandbox.current = sandbox
        return await MainActor.run {
            let tapOn = TapOnPayment(TapOnPartnerConfiguration(appKey: key))
            let recorder = TapOnRecorder(tapOn)
            tapOn.delegate = recorder
            if prepare { tapOn.prepareTap() }
            return recorder
        }
    }
}

extension Failure {
    /// A Tap On failure: its code, in tapsim's exit categories (13 not activated, 17 a refused
    /// amount, 14 a refusal of the sale, 16 no answer). A declined card is an answer (``isIssuerDecline(_:)``).
    init(pagbank error: TapOnPartnerError) {
        let noAnswer: [NetworkErrorKind] = [.unreachable, .timeout, .connectionLost, .invalidResponse]
        let exit: Int32 =
            switch ErrorCode(rawValue: error.code) {
            case _ where error.code == TapOnPartnerError.notActivated.code: 13
            case .sessionExpired, .unauthorized: 13
            case .invalidAmount, .amountBelowMinimum, .amountOverLimit, .amountMismatch, .invalidRequest, .invalidJson: 17
            case _ where noAnswer.map(\.defaultCode).contains(error.code): 16
            default: 14
            }
        self.init(
            json: ["category": "pagbank", "kind": "failure", "code": .string(error.code), "message": .string(error.message), "exitCode": .int(Int(exit))],
            line: "pagbank.failure [\(error.code)]: \(error.message) (exit \(exit))", exitCode: exit)
    }

    /// Tap On's failure for a card the issuer declined: the issuer's two-character response code
    /// (`05`, `51` …), where every other failure has a snake_case code.
    static func isIssuerDecline(_ error: TapOnPartnerError) -> Bool {
        error.code.count == 2 && error.code.allSatisfy { $0.isNumber || $0.isUppercase }
    }
}
