import HostStorage
import SandboxStore
import SandboxWire

/// BLIK payments (docs/blik.md): an APM payment like a QR order (payment method BLIK, brand
/// BLIK), made at the wallet with the customer's code instead of a QR. The wallet checks and
/// spends the code at once; a refusal reaches the device at once with its own code, and nothing of
/// it is kept. A code it takes leaves the payment ONGOING while the customer decides in the bank
/// app, and the outcome comes back as the QR notifications, with the same deadlines, cancel,
/// refunds and webhooks.
extension APMPayments {
    /// The terminal's `blikTimeout` when its DynamicProperties leave it out (the seed's 120 s).
    package static let defaultBlikTimeout = 120

    package static func blikTimeout(_ terminal: TerminalInfo) -> Int {
        terminal.dynamicProperties.blikTimeout.flatMap { $0 > 0 ? $0 : nil } ?? defaultBlikTimeout
    }

    /// doBlikPayment: checks the payment as a card sale and the code's shape, holds the terminal
    /// with a NEW row, asks the wallet, and answers the payment ONGOING (waiting for the customer).
    ///
    /// - Throws: `blik_not_enabled`, the card sale's refusals, `blik_code_invalid` (the shape,
    ///   checked before the wallet is asked), the wallet's refusal of the code as it gave it
    ///   (`blik_code_unknown`, `blik_code_expired`, `blik_code_used`, `blik_verification_failed`),
    ///   `apm_provider_unavailable`. After a refusal nothing is stored and the terminal is free.
    ///
    /// A code is six digits a person types, so wrong ones count against the terminal and the
    /// client `address` in the host's throttle of typed codes (``AttemptThrottle``, shared with the
    /// registration codes): past its limit the payment is `too_many_attempts` before the wallet is
    /// asked, with `Retry-After`.
    package func createBlik(
        _ session: Lifecycle.CurrentSession, _ body: APMBodies.BlikPayment, key: CardPayments.IdempotencyKey?, address: String? = nil
    ) throws -> PaymentAnswer {
        let terminal = try payments.terminalInfo(session)
        guard terminal.blikEnabled == true else { throw PaymentError.blikNotEnabled }
        let typist = Lifecycle.Typist(address: address, device: "terminal:" + terminal.terminalId).keys
        let attempts = payments.lifecycle.attempts
        if let wait = attempts.wait(typist, at: payments.now()) { throw LifecycleError.tooManyAttempts(retryAfter: wait) }
        try PaymentValidation.sale(
            SandboxWire.SaleRequest(
                currency: body.currency ?? terminal.currency.code, requestedAmount: body.requestedAmount, tipAmount: body.tipAmount,
                reference: body.reference, checkoutId: nil, countryCode: nil, cardPayload: nil, readerOutcome: nil, callbackUrl: nil),
            terminal: terminal)
        try Self.checkBlikCode(body.payCode, verification: body.verificationCode)
        let timeout = Self.blikTimeout(terminal)
        let now = payments.now()
        let made: TransactionRecord
        switch try start(terminal, key: key, at: now, {
            $0.paymentMethod = .BLIK
            $0.cardBrand = APMPaymentData.APMBrand.BLIK.rawValue
            $0.apmBrandFullName = "BLIK"
            $0.amount = body.requestedAmount
            $0.tipAmount = body.tipAmount
            $0.reference = body.reference
            $0.apmExpiresAt = now + Int64(timeout) * 1000
        }) {
        case .replay(let answer): return answer
        case .made(let record): made = record
        }
        do {
            _ = try wallet.blikPayment(
                WalletBlik.PaymentRequest(
                    paymentId: made.id, region: region.id, merchantId: terminal.merchantId, merchantName: terminal.merchantName,
                    terminalId: terminal.terminalId, amount: made.amount, currency: made.currency, payCode: body.payCode,
                    verificationCode: body.verificationCode, reference: made.reference, expiresInSeconds: timeout))
        } catch let refusal as PaymentError where refusal.code != .apmProviderUnavailable {
            // The code was refused: no order was made, so there is nothing to close. A code that is
            // no code, or the wrong verification code, is what a guess gets.
            if refusal.code == .blikCodeUnknown || refusal.code == .blikVerificationFailed { attempts.recordFailure(typist, at: now) }
            try abandon(made, closing: false, at: now)
            throw refusal
        } catch {
            try abandon(made, closing: true, at: now)
            throw error
        }
        // The code is spent: the customer has the confirmation request. A notification or a cancel
        // that overtook the wallet's answer has decided already, and stays.
        return try finish(made, terminal: terminal, key: key, at: now) {
            if $0.status == .NEW { $0.moveAPM(to: .ONGOING, by: .codeAccepted, at: now) }
        }
    }

    /// The seed's rules for `payCode` and `verificationCode`, checked before the wallet is asked:
    /// 6 digits alone, or 9 digits with a verification code of 4 digits (docs/blik.md, "Codes").
    package static func checkBlikCode(_ payCode: String, verification: String?) throws(PaymentError) {
        func digits(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard digits(payCode), payCode.utf8.count == 6 || payCode.utf8.count == 9 else {
            throw .blikCodeInvalid("payCode must be 6 digits, or 9 digits with a verificationCode.", field: "payCode")
        }
        if payCode.utf8.count == 6 {
            guard verification == nil else {
                throw .blikCodeInvalid("A 6-digit payCode takes no verificationCode.", field: "verificationCode")
            }
        } else {
            guard let verification else {
                throw .blikCodeInvalid("A 9-digit payCode needs its verificationCode.", field: "verificationCode")
            }
            guard digits(verification), verification.utf8.count == 4 else {
                throw .blikCodeInvalid("verificationCode must be 4 digits.", field: "verificationCode")
            }
        }
    }
}
