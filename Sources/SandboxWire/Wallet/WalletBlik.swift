import Foundation

/// BLIK on the wallet simulator, which plays the customer's bank (docs/blik.md).
///
/// A BLIK payment is a wallet order with brand `BLIK` (``WalletProvider/Order``): the host asks for
/// it with the code the customer typed, the wallet checks and spends the code at once, the
/// customer confirms (or not) in the bank app, and the outcome reaches the host as the same
/// notifications as a QR order (`order.paid`, `order.declined`, `order.expired`). Refunds are
/// ``WalletProvider/RefundRequest``s and credit the customer's account.
public enum WalletBlik {
    /// `POST /provider/v1/blik/payments` (host → wallet, signed like every provider call).
    ///
    /// Answers 201 with the order (`pending`: waiting for the customer's confirmation), or at once
    /// with the code's refusal in the error envelope: 400 `blik_code_invalid`, 404
    /// `blik_code_unknown`, 410 `blik_code_expired`, 409 `blik_code_used`, 403
    /// `blik_verification_failed`. Spending the code is atomic: the same code sent by two
    /// terminals at the same moment pays once, the other gets `blik_code_used`.
    public struct PaymentRequest: Codable, Sendable, Equatable {
        /// The host's transaction id, the order's id.
        public var paymentId: String
        public var region: String
        public var merchantId: String
        public var merchantName: String
        public var terminalId: String
        /// Minor units, tip included.
        public var amount: Int
        /// ISO 4217 (PLN on the mBank host).
        public var currency: String
        public var payCode: String
        public var verificationCode: String?
        public var reference: String?
        /// How long the host waits for the customer (its `blikTimeout`).
        public var expiresInSeconds: Int

        public init(
            paymentId: String, region: String, merchantId: String, merchantName: String, terminalId: String, amount: Int,
            currency: String, payCode: String, verificationCode: String? = nil, reference: String? = nil,
            expiresInSeconds: Int
        ) {
            self.paymentId = paymentId
            self.region = region
            self.merchantId = merchantId
            self.merchantName = merchantName
            self.terminalId = terminalId
            self.amount = amount
            self.currency = currency
            self.payCode = payCode
            self.verificationCode = verificationCode
            self.reference = reference
            self.expiresInSeconds = expiresInSeconds
        }
    }

    /// A customer of the wallet's bank (fixtures in `sandbox-data/wallet.json`, balance kept by the wallet).
    public struct Customer: Codable, Sendable, Equatable {
        public var customerId: String
        public var name: String
        public var bank: String
        public var currency: String
        /// Minor units, now.
        public var balance: Int
        /// The most one payment may take, minor units.
        public var perPaymentLimit: Int

        public init(customerId: String, name: String, bank: String, currency: String, balance: Int, perPaymentLimit: Int) {
            self.customerId = customerId
            self.name = name
            self.bank = bank
            self.currency = currency
            self.balance = balance
            self.perPaymentLimit = perPaymentLimit
        }
    }

    /// `POST /api/blik/codes` (the bank app's "Generate code"): body `{customerId, nine?}`.
    public struct CodeRequest: Codable, Sendable, Equatable {
        public var customerId: String
        /// A 9-digit code with a verification code (our model of the BLIK cheque) instead of 6 digits.
        public var nine: Bool?

        public init(customerId: String, nine: Bool? = nil) {
            self.customerId = customerId
            self.nine = nine
        }
    }

    /// A code the bank app shows: single use, 120 s on the wallet's clock.
    public struct Code: Codable, Sendable, Equatable {
        public var code: String
        /// With a 9-digit code only.
        public var verificationCode: String?
        public var customerId: String
        public var expiresAt: Date
        public var expiresInSeconds: Int

        public init(code: String, verificationCode: String? = nil, customerId: String, expiresAt: Date, expiresInSeconds: Int) {
            self.code = code
            self.verificationCode = verificationCode
            self.customerId = customerId
            self.expiresAt = expiresAt
            self.expiresInSeconds = expiresInSeconds
        }

        enum CodingKeys: String, CodingKey { case code, verificationCode, customerId, expiresAt, expiresInSeconds }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            code = try c.decode(String.self, forKey: .code)
            verificationCode = try c.decodeIfPresent(String.self, forKey: .verificationCode)
            customerId = try c.decode(String.self, forKey: .customerId)
            expiresAt = try c.decodeWireDate(forKey: .expiresAt)
            expiresInSeconds = try c.decode(Int.self, forKey: .expiresInSeconds)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(code, forKey: .code)
            try c.encode(verificationCode, forKey: .verificationCode)
            try c.encode(customerId, forKey: .customerId)
            try c.encode(WireTime.string(from: expiresAt), forKey: .expiresAt)
            try c.encode(expiresInSeconds, forKey: .expiresInSeconds)
        }
    }
}
