import DeviceTransport
import Foundation
import SandboxWire
import TapOnMobileSandbox

/// What Tap On does underneath, with the TapOnMobile device on the PagBank host. Every call answers
/// in Tap On's terms (a delegate event), never throws.
struct Engine: Sendable {
    let sdk: TapOnMobile
    let sandbox: TapOnPartnerSandbox

    static let currency = "BRL"

    func initialize() async -> Result<Success, TapOnMobileError> {
        await sdk.initialization(environment: sandbox.environment, appVersion: "TapOnPartner")
    }

    /// Logged in with the reader prepared: a live session is kept, an ended one renewed (Tap On's
    /// terminals log in without a secure code).
    func ensureSession() async -> Result<Success, TapOnMobileError> {
        if case .failure = await sdk.getSessionExpiration() { return await logIn() }
        // A new launch of the app keeps the session (the device folder has it) but not the prepared reader.
        if sdk.getPrepareDevicePercentage() == 100 { return .success(Success()) }
        return await sdk.prepareDeviceAndWait()
    }

    /// A new session and the reader prepared for it (the percentage of an earlier session says nothing).
    private func logIn() async -> Result<Success, TapOnMobileError> {
        if case .failure(let error) = await sdk.doLogin(pin: nil) { return .failure(error) }
        return await sdk.prepareDeviceAndWait()
    }

    // MARK: - Activation

    /// The partner's key buys a registration token for a terminal of the seller; the device
    /// registers with it (verify, begin, end), logs in and prepares the reader.
    func activate(appKey: String) async -> Bool {
        guard case .success = await initialize() else { return false }
        if case .success(true) = await sdk.isDeviceRegistered() {
            // Activated before on this device (a logout that could not reach the host): start afresh.
            _ = await sdk.unregister()
        }
        guard let activation = await requestActivation(appKey: appKey) else { return false }
        let token = activation.registrationToken
        guard case .success(true) = await sdk.verifyRegistrationToken(registrationToken: token),
            case .success = await sdk.beginTokenRegistration(registrationToken: token),
            case .success = await sdk.endTokenRegistration(registrationToken: token, pin: nil),
            case .success = await logIn()
        else { return false }
        return true
    }

    /// `POST /terminal/v1/partner-activations`: nil when the host refuses the key or cannot be reached.
    private func requestActivation(appKey: String) async -> PartnerActivation? {
        guard let base = try? sandbox.device.endpoint(for: sandbox.environment.region) else { return nil }
        let client = JSONClient(baseURL: base, timeout: sandbox.device.requestTimeout, userAgent: "TapOnPartner")
        let body = PartnerActivationRequest(appKey: appKey, sellerId: sandbox.sellerId)
        guard case .value(let activation) = await client.send("POST", "/terminal/v1/partner-activations", body: body, as: PartnerActivation.self)
        else { return nil }
        return activation
    }

    /// The session ends and the terminal is freed for another device.
    func deactivate() async {
        guard case .success = await initialize() else { return }
        _ = await sdk.doLogout()
        _ = await sdk.unregister()
    }

    // MARK: - Sales

    /// A sale of `reais`: the amount in centavos exactly (more than two decimals is refused), then
    /// the terminal API's sale in BRL; approved only when it cleared.
    func sale(reais: Double) async -> TapOnPartnerPaymentEvent {
        guard let cents = Self.centavos(reais) else {
            return .failure(TapOnPartnerError(code: ErrorCode.invalidAmount.rawValue, message: "The amount must be more than 0 reais with at most two decimals, not \(reais)."))
        }
        if case .failure(let error) = await ready() { return .failure(Self.error(error)) }
        switch await Self.cleared(sdk.doPayment(currency: Self.currency, requestedAmount: cents, reference: nil)) {
        case .success(let detail): return .approved(Self.result(detail, requested: cents))
        case .failure(let error): return .failure(error)
        }
    }

    /// Initialized and logged in, the reader prepared.
    private func ready() async -> Result<Success, TapOnMobileError> {
        if case .failure(let error) = await initialize() { return .failure(error) }
        return await ensureSession()
    }

    /// Reais as whole centavos: `10.07` is 1007; nil for a non-finite, non-positive amount or one
    /// with more than two decimals (`10.005`). The product is compared with its rounding, so the
    /// binary error of a decimal like 10.07 (1006.9999…) is no drift.
    static func centavos(_ reais: Double) -> Int? {
        guard reais.isFinite, reais > 0, reais < 1e13 else { return nil }
        let scaled = reais * 100
        let rounded = scaled.rounded()
        guard abs(scaled - rounded) <= 1e-9 * max(1, rounded), rounded >= 1 else { return nil }
        return Int(rounded)
    }

    static func result(_ detail: TransactionDetail, requested: Int) -> TapOnPaymentResult {
        let label = detail.applicationLabel?.uppercased() ?? ""
        return TapOnPaymentResult(
            transactionCode: detail.transactionId, responseMessage: detail.responseMsg ?? "Approved", originalAmount: String(requested),
            amount: String(detail.transactionAmount), installments: 1, paymentType: label.contains("DEBIT") ? "debit" : "credit",
            cardBrand: detail.cardType, holder: detail.cardNumber, authDate: WireTime.string(from: detail.transactionDate),
            authCode: detail.authId.isEmpty ? nil : detail.authId, userRef: detail.ref1)
    }

    // MARK: - Cancels

    /// The sale `transactionCode` cancelled in full: a reversal naming `amount` (the host refuses
    /// another), or, once the sale can no longer be reversed, a refund of its whole amount with the
    /// customer's card.
    func cancel(transactionCode: String, amount text: String, userRef: String?) async -> TapOnPartnerCancelEvent {
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let amount = Int(text), amount > 0 else {
            return .failure(TapOnPartnerError(code: ErrorCode.invalidAmount.rawValue, message: "amount must be the sale's amount in centavos, such as \"1000\", not \"\(text)\"."))
        }
        guard !transactionCode.isEmpty else {
            return .failure(TapOnPartnerError(code: ErrorCode.transactionNotFound.rawValue, message: "transactionCode must name the sale."))
        }
        if case .failure(let error) = await ready() { return .failure(Self.error(error)) }
        switch await sdk.doReversal(transactionId: transactionCode, expectedAmount: amount) {
        case .success:
            return .approved(TapOnCancelResult(amount: text, refCode: transactionCode))
        case .failure(let error) where error.code == ErrorCode.transactionNotCancellable.rawValue:
            return await refund(transactionCode: transactionCode, amount: amount, userRef: userRef)
        case .failure(let error):
            return .failure(Self.error(error))
        }
    }

    private func refund(transactionCode: String, amount: Int, userRef: String?) async -> TapOnPartnerCancelEvent {
        // A refund may be partial; a cancel is the whole sale, so its amount must be the sale's.
        switch await sdk.fetchTransactionDetails(transactionId: transactionCode) {
        case .failure(let error): return .failure(Self.error(error))
        case .success(let sale) where sale.transactionAmount != amount:
            return .failure(
                TapOnPartnerError(
                    code: ErrorCode.amountMismatch.rawValue, message: "The sale is \(sale.transactionAmount) centavos; a cancel names its whole amount."))
        case .success: break
        }
        switch await Self.cleared(sdk.doRefund(currency: Self.currency, requestedAmount: amount, transactionId: transactionCode, reference: userRef)) {
        case .success(let detail): return .approved(TapOnCancelResult(amount: String(detail.transactionAmount), refCode: detail.transactionId))
        case .failure(let error): return .failure(error)
        }
    }

    /// The transaction a card stream completes with, when it cleared; else why not.
    static func cleared(_ events: AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>) async -> Result<TransactionDetail, TapOnPartnerError> {
        var final: TransactionDetail?
        for await result in events {
            switch result {
            case .success(.completed(let detail)): final = detail
            case .success: continue
            case .failure(let error): return .failure(Self.error(error))
            }
        }
        guard let detail = final else { return .failure(TapOnPartnerError(code: "incomplete", message: "The transaction ended without a result.")) }
        if let failure = detail.outcomeError { return .failure(Self.error(failure)) }
        return .success(detail)
    }

    static func error(_ error: TapOnMobileError) -> TapOnPartnerError {
        TapOnPartnerError(code: error.code, message: error.message)
    }
}

/// Tap On's conversion of reais to centavos (not in the seed), for tests and tools.
public enum TapOnPartnerAmounts {
    /// `reais` as whole centavos, or nil when it has more than two decimals or is not above 0.
    public static func centavos(_ reais: Double) -> Int? { Engine.centavos(reais) }
}
