import SandboxWire

/// Why a sale, refund or reversal request was refused before any transaction was made.
///
/// `code` is the stable machine code of docs/card-payments.md (`invalid_amount`,
/// `tip_over_limit` …), `field` the request field at fault (nil when the terminal or the
/// original transaction is at fault), and `message` a sentence for people. The host puts the
/// three into its error envelope with ``Code/httpStatus``:
///
/// ```json
/// {"error": {"code": "tip_over_limit", "message": "tipAmount 1600 exceeds 15 % of the base amount 10000.", "field": "tipAmount"}}
/// ```
public struct PaymentRuleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stable machine code (SandboxWire's ``ErrorCode``) and the HTTP status it answers with.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire's code, e.g. ``ErrorCode/invalidAmount``.
        public let errorCode: ErrorCode
        /// The HTTP status the host answers with: 400 for a bad field, 403 for what the
        /// terminal does not permit, 404 for another terminal's transaction, 409 for a
        /// transaction in the wrong state.
        public let httpStatus: Int

        private init(_ errorCode: ErrorCode, _ httpStatus: Int) {
            self.errorCode = errorCode
            self.httpStatus = httpStatus
        }

        /// `requestedAmount` below 1, or a negative `tipAmount` (400).
        public static let invalidAmount = Code(.invalidAmount, 400)
        /// `requestedAmount`, tip included, above the terminal's `limitAmount` (400).
        public static let amountOverLimit = Code(.amountOverLimit, 400)
        /// A sale's `requestedAmount` below the region's `minTransactionAmount` (400).
        public static let amountBelowMinimum = Code(.amountBelowMinimum, 400)
        /// `currency` is not an ISO 4217 code (400).
        public static let invalidCurrency = Code(.invalidCurrency, 400)
        /// `currency` is not the terminal's, or not the refunded sale's (400).
        public static let currencyMismatch = Code(.currencyMismatch, 400)
        /// A tip on a terminal without tips (400).
        public static let tipsNotAllowed = Code(.tipsNotAllowed, 400)
        /// A tip not below the amount, above `maxTipAmount`, or above `maxTipPercentage` of the base (400).
        public static let tipOverLimit = Code(.tipOverLimit, 400)
        /// A reference that is empty, too long, not printable or not matching the pattern (400).
        public static let invalidReference = Code(.invalidReference, 400)
        /// `countryCode` outside the terminal's `permittedCountries` (403).
        public static let countryNotPermitted = Code(.countryNotPermitted, 403)
        /// Refunds are off on this terminal (403).
        public static let refundNotAllowed = Code(.refundNotAllowed, 403)
        /// A refund above the sale's amount (400).
        public static let refundOverAmount = Code(.refundOverAmount, 400)
        /// The sale was refunded already (409).
        public static let alreadyRefunded = Code(.alreadyRefunded, 409)
        /// The original is not a `CLEARED` sale (409).
        public static let transactionNotRefundable = Code(.transactionNotRefundable, 409)
        /// The sale can still be reversed, so it is reversed rather than refunded (409).
        public static let transactionStillCancellable = Code(.transactionStillCancellable, 409)
        /// Reversals are off on this terminal (403).
        public static let reversalNotAllowed = Code(.reversalNotAllowed, 403)
        /// Not the terminal's latest `CLEARED` sale, or older than 30 minutes (409).
        public static let transactionNotCancellable = Code(.transactionNotCancellable, 409)
        /// Another terminal's transaction, which this terminal may not see (404).
        public static let transactionNotFound = Code(.transactionNotFound, 404)

        /// The wire's code, e.g. `invalid_amount`.
        public var rawValue: String { errorCode.rawValue }

        public var description: String { errorCode.rawValue }
    }

    public let code: Code
    /// The request field at fault, e.g. `tipAmount`, or nil.
    public let field: String?
    /// What is wrong, for people.
    public let message: String

    public init(_ code: Code, field: String?, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// `code (field): message`, for logs and test output.
    public var description: String {
        field.map { "\(code) (\($0)): \(message)" } ?? "\(code): \(message)"
    }
}
