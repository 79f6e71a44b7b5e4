/// Every stable error code a host or service of the sandbox answers in its envelope
/// `{"error": {"code", "message", "field"}}`: one list both sides switch over, the server when it
/// refuses and the SDK when it maps a refusal to its own errors.
///
/// A case is the lowerCamel spelling of its wire value (`terminal_busy` is ``terminalBusy``), so
/// a code reads the same in Swift, in the docs' error tables and on the wire. A code this build
/// does not know (a newer host's) still decodes, as ``unrecognized(_:)`` with its text, so an old
/// SDK maps it to its generic error instead of failing to read the answer:
///
/// ```swift
/// switch ErrorCode(rawValue: "terminal_busy") {
/// case .terminalBusy: print("finish the other transaction first")
/// case .unrecognized(let text): print("a code from a newer host: \(text)")
/// default: print("another refusal")
/// }
/// ```
///
/// Each case's documentation gives the HTTP status it comes with and what it means; the error
/// tables of docs/*.md list the same codes, and a test keeps the two lists equal.
public enum ErrorCode: Sendable {

    // MARK: Every service (the HTTP module's own refusals)

    /// 404: No route or resource at this path (any service).
    case notFound
    /// 405: The path exists but not for this method; `Allow` lists the methods it takes.
    case methodNotAllowed
    /// 413: The request body is larger than the service accepts.
    case payloadTooLarge
    /// 415: A body sent with a content type other than `application/json`.
    case unsupportedMediaType
    /// 400: The body is not JSON, or a field is missing or of the wrong type (`field` names it).
    case invalidJson
    /// 500: The service failed to answer; the detail is in its log, never in the answer.
    case internalError
    /// 401: Sandbox control (`/_sandbox/*` and the portal's relays of it) on a service that listens
    /// beyond loopback, without the control key in `X-Sandbox-Control-Key` or with a wrong one.
    case controlKeyRequired
    /// 403: A request that changes state, sent by a page of another origin (its `Origin` or
    /// `Sec-Fetch-Site` says so): a web page the developer visits must not drive the sandbox.
    case crossSiteRequest
    /// 421: `Host` names neither loopback, an IP address nor a name the service was given
    /// (`SANDBOX_ALLOWED_HOSTS`): what a DNS-rebinding page sends.
    case hostNotAllowed
    /// 503: The service's disk is full: the write was not kept (`Retry-After` says when to try again).
    case storageFull
    /// 404: No snapshot of that name holds this service's state (`GET /_sandbox/snapshots` lists them).
    case snapshotNotFound
    /// 409: The snapshot was saved by another region's host or another schema version: nothing was restored.
    case snapshotMismatch
    /// 503: A snapshot is being restored on this service (`Retry-After` says when to try again).
    case restoreInProgress

    // MARK: Every surface of an environment host

    /// 400: A value out of its rules (PIN format, e-mail, clock, query parameter); `field` names it.
    case invalidRequest

    // MARK: Terminal lifecycle (docs/terminal-lifecycle.md)

    /// 401: A missing or wrong credential (`field` names it: `header.Authorization` or `deviceSecret`).
    case unauthorized
    /// 401: The session token is past its end, logged out, or replaced.
    case sessionExpired
    /// 401: The device credential of a device that is no longer registered.
    case terminalUnregistered
    /// 401: 90 days without a login: the device was just unregistered.
    case certificatesExpired
    /// 404: No such challenge code on this host.
    case challengeNotFound
    /// 410: The challenge code is older than 10 minutes.
    case challengeExpired
    /// 409: The challenge was already confirmed.
    case challengeUsed
    /// 404: No such back-office code on this host.
    case backofficeCodeInvalid
    /// 410: The back-office code expired.
    case backofficeCodeExpired
    /// 409: The back-office code was already used.
    case backofficeCodeUsed
    /// 400: A back-office code of another region.
    case backofficeCodeWrongEnvironment
    /// 403: The back-office code was issued for another device's challenge.
    case backofficeCodeWrongDevice
    /// 404: No such registration token on this host.
    case registrationTokenInvalid
    /// 410: The registration token expired.
    case registrationTokenExpired
    /// 409: The registration token was already used.
    case registrationTokenUsed
    /// 400: A registration token of another region.
    case registrationTokenWrongEnvironment
    /// 409: Token registration runs verify, begin, end: a step came early.
    case registrationOutOfOrder
    /// 403: The registration is ended by another device than the one that began it.
    case registrationWrongDevice
    /// 409: The terminal already has a registered device.
    case terminalInUse
    /// 409: The merchant has no terminal without a device.
    case noFreeTerminal
    /// 404: No such terminal (or another merchant's).
    case terminalNotFound
    /// 404: No such merchant.
    case merchantNotFound
    /// 409: A back-office unlock or unregister of a terminal without a device.
    case terminalNotRegistered
    /// 409: The terminal's `registerOptions` do not include this method.
    case registrationMethodNotAllowed
    /// 409: This device is registered already; unregister it first.
    case deviceAlreadyRegistered
    /// 400: Login, or the end of a registration, without a PIN on a terminal without auto-login.
    case pinRequired
    /// 401: A wrong secure code; the message says how many attempts remain.
    case invalidPin
    /// 423: Five wrong secure codes: the back office must unlock the device.
    case secureCodeLocked
    /// 429: Too many wrong codes or secrets typed from this device or address (back-office code,
    /// challenge code, registration token, secure code): `Retry-After` says when to try again.
    case tooManyAttempts

    // MARK: Card payments (docs/card-payments.md)

    /// 400: A card or PIN payload that does not open with the terminal's reader key, or a card read dated in the host's future.
    case cardPayloadInvalid
    /// 409: A card read that was already used for a transaction.
    case cardPayloadReplayed
    /// 400: The card's PAN is not 12–19 digits, or fails the Luhn check.
    case invalidPan
    /// 400: The card's country is not an ISO 3166-1 alpha-2 code.
    case invalidCardCountry
    /// 400: The card's PAN (IIN range, length) or AID is not its brand's.
    case brandMismatch
    /// 400: The card's brand is none the host knows.
    case unknownBrand
    /// 400: The card's `cvm` is neither `none` nor `onlinePin`.
    case unknownCvm
    /// 400: The card's expiry, AID, label or PAN sequence is out of shape.
    case invalidCardData
    /// 409: Another transaction is in flight on this terminal.
    case terminalBusy
    /// 404: No such transaction on this terminal (another terminal's counts as none).
    case transactionNotFound
    /// 409: A card, PIN or DCC choice for a transaction in another state.
    case transactionWrongState
    /// 403: The terminal does not allow reversals.
    case reversalNotAllowed
    /// 403: The terminal does not allow refunds.
    case refundNotAllowed
    /// 409: Not the terminal's latest cleared sale, or older than 30 minutes.
    case transactionNotCancellable
    /// 409: The sale can still be reversed: reverse it instead of refunding it.
    case transactionStillCancellable
    /// 409: The sale was refunded already.
    case alreadyRefunded
    /// 400: A refund above the sale's amount.
    case refundOverAmount
    /// 409: A refund of a refund, or of a sale that is not `CLEARED`.
    case transactionNotRefundable
    /// 400: The currency is not the terminal's, or not the refunded sale's.
    case currencyMismatch
    /// 400: The currency is not an ISO 4217 code.
    case invalidCurrency
    /// 400: `requestedAmount` below 1, or a negative tip.
    case invalidAmount
    /// 400: `requestedAmount`, tip included, above the terminal's `limitAmount`.
    case amountOverLimit
    /// 400: A sale's `requestedAmount` below the region's smallest sale (PagBank: R$ 1,00).
    case amountBelowMinimum
    /// 409: A reversal whose `expectedAmount` is not the sale's amount (PagBank's cancel).
    case amountMismatch
    /// 401: `POST /terminal/v1/partner-activations` with an `appKey` no partner app of the region has.
    case unknownAppKey
    /// 401: `POST /terminal/v1/reader-sessions` with a reader token this region's host did not sign.
    case readerTokenInvalid
    /// 401: `POST /terminal/v1/reader-sessions` with a reader token past its expiry.
    case readerTokenExpired
    /// 409: A cancel whose card is not the card of the sale it cancels.
    case cardMismatch
    /// 400: A tip on a terminal without tips.
    case tipsNotAllowed
    /// 400: A tip not below the amount, or above the terminal's `maxTipAmount` or `maxTipPercentage`.
    case tipOverLimit
    /// 400: A reference that is empty, too long, not printable or not matching the terminal's pattern.
    case invalidReference
    /// 403: The device's `countryCode` is outside the terminal's `permittedCountries`.
    case countryNotPermitted
    /// 404: No such checkout for this terminal.
    case checkoutNotFound
    /// 409: The checkout was used by another transaction.
    case checkoutUsed
    /// 410: The checkout is older than 30 minutes.
    case checkoutExpired
    /// 409: A field of the sale differs from the pre-registered checkout (`field` names it).
    case checkoutMismatch
    /// 409: The `Idempotency-Key` was used with another request body.
    case idempotencyKeyReused
    /// 409: A validate with less than a minute of session left.
    case sessionExpiring
    /// 409: Details by a reference that several transactions carry.
    case referenceNotUnique
    /// 404: No such receipt.
    case receiptNotFound
    /// 422: A refused `callbackUrl`: no payment was created.
    case outcomeUnknown

    // MARK: Webhooks, the webhook inbox and `webhooks listen` (docs/webhooks.md)

    /// 404: No such webhook event on this host.
    case webhookEventNotFound
    /// 409: A sample webhook for a merchant with no endpoint to send it to.
    case noWebhookEndpoint
    /// 409: A sample webhook whose `cards.json` has no card for it.
    case noSampleCard
    /// 404: The webhook inbox receives for fixture merchants only.
    case unknownMerchant
    /// 502: `webhooks listen`: the forward target did not answer.
    case forwardFailed
    /// 400: `webhooks listen`: a signature header the scheme needs is absent or empty.
    case missingHeader
    /// 400: `webhooks listen`: a signature header is present but unreadable.
    case malformedHeader
    /// 400: `webhooks listen`: the header offers signatures only in schemes other than `v1`.
    case downgrade
    /// 400: `webhooks listen`: no `v1` signature is the HMAC of the body under the secret.
    case noMatchingSignature
    /// 400: `webhooks listen`: a genuine signature whose timestamp is outside the tolerance.
    case timestampOutsideTolerance

    // MARK: The merchant portal

    /// 404: The portal drives no host for that region.
    case environmentNotFound
    /// 502: The portal's host for that region does not answer.
    case environmentUnavailable
    /// 409: The challenge code was made by another region's host; the message names it.
    case challengeOtherRegion
    /// 409: A valid registration token locks the terminal against registration by challenge code.
    case terminalLockedByToken

    // MARK: The request journal and faults

    /// 404: The journal keeps no request with that id (it keeps the last 1,000 per surface).
    case requestNotFound
    /// 404: No fault with that id is set.
    case faultNotFound
    /// The status a tester's fault asked for (`/_sandbox/faults`), when the fault names no code of its own.
    case injectedFault

    // MARK: APMs: QR wallets and the wallet simulator (docs/qr-payments.md)

    /// 403: The terminal takes no APM payments (`apmEnabled` is false).
    case apmNotEnabled
    /// 400: The brand is none of the terminal's active `apmConfig` brands.
    case apmBrandUnavailable
    /// 409: The APM order is final already (declined, expired, cancelled): nothing can change it, a late payment included.
    case apmOrderClosed
    /// 409: The customer paid the order already: it cannot be cancelled, refund it instead.
    case apmAlreadyPaid
    /// 502: The wallet provider did not answer; no order was made.
    case apmProviderUnavailable
    /// 401: A host↔wallet request without a valid `Wallet-Signature` for its `Wallet-Region`.
    case providerSignatureInvalid
    /// 404: The wallet has no order with that id.
    case orderNotFound
    /// 409: The wallet order is no longer open (paid, declined, expired, closed or refused).
    case orderNotPayable
    /// 409: The wallet order was paid: the host cannot close it.
    case orderPaid
    /// 404: The wallet has no standing rule with that id.
    case ruleNotFound

    // MARK: BLIK (docs/blik.md)

    /// 403: The terminal takes no BLIK payments (`blikEnabled` is false).
    case blikNotEnabled
    /// 400: A BLIK `payCode` that is not 6 or 9 digits, a 9-digit one without its `verificationCode`, or a verification code beside a 6-digit one.
    case blikCodeInvalid
    /// 404: No bank app issued that BLIK code.
    case blikCodeUnknown
    /// 410: The BLIK code lived its 120 seconds.
    case blikCodeExpired
    /// 409: The BLIK code was used already (a code pays once, on one terminal).
    case blikCodeUsed
    /// 403: The verification code does not belong to the 9-digit BLIK code.
    case blikVerificationFailed
    /// 404: The wallet's bank has no customer with that id.
    case customerNotFound

    /// A code this build does not know, with its text as it came (a newer host's).
    case unrecognized(String)

    /// Every code this build knows, in declaration order (all but ``unrecognized(_:)``).
    public static let known: [ErrorCode] = [
        .notFound, .methodNotAllowed, .payloadTooLarge, .unsupportedMediaType, .invalidJson, .internalError, .controlKeyRequired,
        .crossSiteRequest, .hostNotAllowed, .storageFull, .snapshotNotFound, .snapshotMismatch, .restoreInProgress,
        .invalidRequest, .unauthorized, .sessionExpired, .terminalUnregistered, .certificatesExpired,
        .challengeNotFound, .challengeExpired, .challengeUsed, .backofficeCodeInvalid, .backofficeCodeExpired,
        .backofficeCodeUsed, .backofficeCodeWrongEnvironment, .backofficeCodeWrongDevice, .registrationTokenInvalid,
        .registrationTokenExpired, .registrationTokenUsed, .registrationTokenWrongEnvironment, .registrationOutOfOrder,
        .registrationWrongDevice, .terminalInUse, .noFreeTerminal, .terminalNotFound, .merchantNotFound,
        .terminalNotRegistered, .registrationMethodNotAllowed, .deviceAlreadyRegistered, .pinRequired, .invalidPin,
        .secureCodeLocked, .tooManyAttempts, .cardPayloadInvalid, .cardPayloadReplayed, .invalidPan, .invalidCardCountry, .brandMismatch,
        .unknownBrand, .unknownCvm, .invalidCardData, .terminalBusy, .transactionNotFound, .transactionWrongState,
        .reversalNotAllowed, .refundNotAllowed, .transactionNotCancellable, .transactionStillCancellable,
        .alreadyRefunded, .refundOverAmount, .transactionNotRefundable, .currencyMismatch, .invalidCurrency,
        .invalidAmount, .amountOverLimit, .amountBelowMinimum, .amountMismatch, .unknownAppKey, .readerTokenInvalid, .readerTokenExpired, .cardMismatch, .tipsNotAllowed, .tipOverLimit, .invalidReference, .countryNotPermitted,
        .checkoutNotFound, .checkoutUsed, .checkoutExpired, .checkoutMismatch, .idempotencyKeyReused, .sessionExpiring,
        .referenceNotUnique, .receiptNotFound, .outcomeUnknown, .webhookEventNotFound, .noWebhookEndpoint,
        .noSampleCard, .unknownMerchant, .forwardFailed, .missingHeader, .malformedHeader, .downgrade,
        .noMatchingSignature, .timestampOutsideTolerance, .environmentNotFound, .environmentUnavailable,
        .challengeOtherRegion, .terminalLockedByToken, .requestNotFound, .faultNotFound, .injectedFault,
        .apmNotEnabled, .apmBrandUnavailable, .apmOrderClosed, .apmAlreadyPaid, .apmProviderUnavailable, .providerSignatureInvalid, .orderNotFound, .orderNotPayable, .orderPaid, .ruleNotFound,
        .blikNotEnabled, .blikCodeInvalid, .blikCodeUnknown, .blikCodeExpired, .blikCodeUsed, .blikVerificationFailed, .customerNotFound,
    ]

    private static let byRawValue: [String: ErrorCode] = Dictionary(uniqueKeysWithValues: known.map { ($0.rawValue, $0) })
}

extension ErrorCode: RawRepresentable {
    /// The code for a wire value: a known case, or ``unrecognized(_:)`` keeping the text.
    public init(rawValue: String) {
        self = Self.byRawValue[rawValue] ?? .unrecognized(rawValue)
    }

    /// The wire value, `terminal_busy`.
    public var rawValue: String {
        switch self {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .payloadTooLarge: "payload_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        case .invalidJson: "invalid_json"
        case .internalError: "internal_error"
        case .controlKeyRequired: "control_key_required"
        case .crossSiteRequest: "cross_site_request"
        case .hostNotAllowed: "host_not_allowed"
        case .storageFull: "storage_full"
        case .snapshotNotFound: "snapshot_not_found"
        case .snapshotMismatch: "snapshot_mismatch"
        case .restoreInProgress: "restore_in_progress"
        case .invalidRequest: "invalid_request"
        case .unauthorized: "unauthorized"
        case .sessionExpired: "session_expired"
        case .terminalUnregistered: "terminal_unregistered"
        case .certificatesExpired: "certificates_expired"
        case .challengeNotFound: "challenge_not_found"
        case .challengeExpired: "challenge_expired"
        case .challengeUsed: "challenge_used"
        case .backofficeCodeInvalid: "backoffice_code_invalid"
        case .backofficeCodeExpired: "backoffice_code_expired"
        case .backofficeCodeUsed: "backoffice_code_used"
        case .backofficeCodeWrongEnvironment: "backoffice_code_wrong_environment"
        case .backofficeCodeWrongDevice: "backoffice_code_wrong_device"
        case .registrationTokenInvalid: "registration_token_invalid"
        case .registrationTokenExpired: "registration_token_expired"
        case .registrationTokenUsed: "registration_token_used"
        case .registrationTokenWrongEnvironment: "registration_token_wrong_environment"
        case .registrationOutOfOrder: "registration_out_of_order"
        case .registrationWrongDevice: "registration_wrong_device"
        case .terminalInUse: "terminal_in_use"
        case .noFreeTerminal: "no_free_terminal"
        case .terminalNotFound: "terminal_not_found"
        case .merchantNotFound: "merchant_not_found"
        case .terminalNotRegistered: "terminal_not_registered"
        case .registrationMethodNotAllowed: "registration_method_not_allowed"
        case .deviceAlreadyRegistered: "device_already_registered"
        case .pinRequired: "pin_required"
        case .invalidPin: "invalid_pin"
        case .secureCodeLocked: "secure_code_locked"
        case .tooManyAttempts: "too_many_attempts"
        case .cardPayloadInvalid: "card_payload_invalid"
        case .cardPayloadReplayed: "card_payload_replayed"
        case .invalidPan: "invalid_pan"
        case .invalidCardCountry: "invalid_card_country"
        case .brandMismatch: "brand_mismatch"
        case .unknownBrand: "unknown_brand"
        case .unknownCvm: "unknown_cvm"
        case .invalidCardData: "invalid_card_data"
        case .terminalBusy: "terminal_busy"
        case .transactionNotFound: "transaction_not_found"
        case .transactionWrongState: "transaction_wrong_state"
        case .reversalNotAllowed: "reversal_not_allowed"
        case .refundNotAllowed: "refund_not_allowed"
        case .transactionNotCancellable: "transaction_not_cancellable"
        case .transactionStillCancellable: "transaction_still_cancellable"
        case .alreadyRefunded: "already_refunded"
        case .refundOverAmount: "refund_over_amount"
        case .transactionNotRefundable: "transaction_not_refundable"
        case .currencyMismatch: "currency_mismatch"
        case .invalidCurrency: "invalid_currency"
        case .invalidAmount: "invalid_amount"
        case .amountOverLimit: "amount_over_limit"
        case .amountBelowMinimum: "amount_below_minimum"
        case .amountMismatch: "amount_mismatch"
        case .unknownAppKey: "unknown_app_key"
        case .readerTokenInvalid: "reader_token_invalid"
        case .readerTokenExpired: "reader_token_expired"
        case .cardMismatch: "card_mismatch"
        case .tipsNotAllowed: "tips_not_allowed"
        case .tipOverLimit: "tip_over_limit"
        case .invalidReference: "invalid_reference"
        case .countryNotPermitted: "country_not_permitted"
        case .checkoutNotFound: "checkout_not_found"
        case .checkoutUsed: "checkout_used"
        case .checkoutExpired: "checkout_expired"
        case .checkoutMismatch: "checkout_mismatch"
        case .idempotencyKeyReused: "idempotency_key_reused"
        case .sessionExpiring: "session_expiring"
        case .referenceNotUnique: "reference_not_unique"
        case .receiptNotFound: "receipt_not_found"
        case .outcomeUnknown: "outcome_unknown"
        case .webhookEventNotFound: "webhook_event_not_found"
        case .noWebhookEndpoint: "no_webhook_endpoint"
        case .noSampleCard: "no_sample_card"
        case .unknownMerchant: "unknown_merchant"
        case .forwardFailed: "forward_failed"
        case .missingHeader: "missing_header"
        case .malformedHeader: "malformed_header"
        case .downgrade: "downgrade"
        case .noMatchingSignature: "no_matching_signature"
        case .timestampOutsideTolerance: "timestamp_outside_tolerance"
        case .environmentNotFound: "environment_not_found"
        case .environmentUnavailable: "environment_unavailable"
        case .challengeOtherRegion: "challenge_other_region"
        case .terminalLockedByToken: "terminal_locked_by_token"
        case .requestNotFound: "request_not_found"
        case .faultNotFound: "fault_not_found"
        case .injectedFault: "injected_fault"
        case .apmNotEnabled: "apm_not_enabled"
        case .apmBrandUnavailable: "apm_brand_unavailable"
        case .apmOrderClosed: "apm_order_closed"
        case .apmAlreadyPaid: "apm_already_paid"
        case .apmProviderUnavailable: "apm_provider_unavailable"
        case .providerSignatureInvalid: "provider_signature_invalid"
        case .orderNotFound: "order_not_found"
        case .orderNotPayable: "order_not_payable"
        case .orderPaid: "order_paid"
        case .ruleNotFound: "rule_not_found"
        case .blikNotEnabled: "blik_not_enabled"
        case .blikCodeInvalid: "blik_code_invalid"
        case .blikCodeUnknown: "blik_code_unknown"
        case .blikCodeExpired: "blik_code_expired"
        case .blikCodeUsed: "blik_code_used"
        case .blikVerificationFailed: "blik_verification_failed"
        case .customerNotFound: "customer_not_found"
        case .unrecognized(let text): text
        }
    }
}

/// Equal when the wire values are: `.unrecognized("terminal_busy")` is `.terminalBusy`.
extension ErrorCode: Hashable {
    public static func == (lhs: ErrorCode, rhs: ErrorCode) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// On the wire a code is its text, known or not.
extension ErrorCode: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
