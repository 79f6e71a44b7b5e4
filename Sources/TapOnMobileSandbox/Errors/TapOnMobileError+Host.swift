import SandboxWire
import SimulatedReader

/// How the host's error codes (docs/terminal-lifecycle.md, docs/card-payments.md) and the
/// reader's errors become SDK errors.
extension TapOnMobileError {
    /// The SDK error for the host's envelope `{"error": {"code", "message", "field"}}`.
    ///
    /// The switch names every ``ErrorCode``, so a code added to the wire contract needs its SDK
    /// error here before the SDK builds. A code no category claims, and one this build does not
    /// know (a newer host's), becomes ``NetworkError/http(status:code:message:)``. `status` is nil
    /// for a refusal the host reported inside a 200 answer (a verify call's `reason`).
    static func host(status: Int?, code errorCode: ErrorCode, message: String, field: String?) -> TapOnMobileError {
        let code = errorCode.rawValue
        func registration(_ kind: RegistrationError.Kind) -> TapOnMobileError {
            .registration(RegistrationError(kind, code: code, message: message, status: status, field: field))
        }
        func session(_ kind: SessionError.Kind) -> TapOnMobileError {
            .session(SessionError(kind, code: code, message: message, status: status, field: field))
        }
        func transaction(_ kind: TransactionError.Kind) -> TapOnMobileError {
            .transaction(TransactionError(kind, code: code, message: message, status: status, field: field))
        }
        func card(_ kind: CardReaderSessionError.Kind) -> TapOnMobileError {
            .cardReaderSession(CardReaderSessionError(kind, code: code, message: message, status: status, field: field))
        }
        func validation(_ kind: ValidationError.Kind) -> TapOnMobileError {
            .validation(ValidationError(kind, code: code, message: message, status: status, field: field))
        }
        switch errorCode {
        case .challengeNotFound, .backofficeCodeInvalid, .registrationTokenInvalid: return registration(.invalidCode)
        case .challengeExpired, .backofficeCodeExpired, .registrationTokenExpired: return registration(.codeExpired)
        case .challengeUsed, .backofficeCodeUsed, .registrationTokenUsed: return registration(.codeUsed)
        case .backofficeCodeWrongEnvironment, .registrationTokenWrongEnvironment: return registration(.wrongEnvironment)
        case .backofficeCodeWrongDevice, .registrationWrongDevice: return registration(.wrongDevice)
        case .registrationOutOfOrder: return registration(.outOfOrder)
        // Held by a device, or reserved by an unused registration token: either way not this device's to take.
        case .terminalInUse, .terminalLockedByToken: return registration(.terminalInUse)
        case .noFreeTerminal: return registration(.noFreeTerminal)
        case .registrationMethodNotAllowed: return registration(.methodNotAllowed)
        case .deviceAlreadyRegistered: return registration(.alreadyRegistered)
        case .terminalNotFound, .merchantNotFound, .terminalNotRegistered: return registration(.terminalNotFound)

        case .unauthorized: return session(.sessionError)
        case .sessionExpired: return session(.sessionExpired)
        case .sessionExpiring: return session(.sessionExpiring)
        case .terminalUnregistered: return session(.terminalUnregistered)
        case .certificatesExpired: return session(.certificatesExpired)
        case .invalidPin: return session(.invalidPin)
        case .secureCodeLocked: return session(.locked)
        case .pinRequired: return session(.pinRequired)

        case .terminalBusy: return transaction(.busy)
        case .transactionNotFound, .receiptNotFound: return transaction(.notFound)
        case .refundNotAllowed, .reversalNotAllowed: return transaction(.notAllowed)
        case .invalidAmount, .amountOverLimit, .amountBelowMinimum, .amountMismatch, .refundOverAmount: return transaction(.invalidAmount)
        case .unknownAppKey, .readerTokenInvalid: return registration(.invalidCode)
        case .readerTokenExpired: return registration(.codeExpired)
        case .cardMismatch: return transaction(.notCancellable)
        case .invalidCurrency, .currencyMismatch: return transaction(.invalidCurrency)
        case .tipsNotAllowed, .tipOverLimit: return transaction(.invalidTip)
        case .invalidReference, .referenceNotUnique: return transaction(.invalidReference)
        case .transactionNotCancellable: return transaction(.notCancellable)
        case .transactionStillCancellable: return transaction(.stillCancellable)
        case .alreadyRefunded: return transaction(.alreadyRefunded)
        case .transactionNotRefundable: return transaction(.notRefundable)
        case .transactionWrongState: return transaction(.wrongState)
        case .checkoutNotFound, .checkoutUsed, .checkoutExpired, .checkoutMismatch: return transaction(.checkoutRejected)
        case .idempotencyKeyReused: return transaction(.idempotencyKeyReused)
        case .apmNotEnabled, .apmBrandUnavailable: return transaction(.notAllowed)
        case .apmOrderClosed: return transaction(.wrongState)
        case .apmAlreadyPaid: return transaction(.notCancellable)
        case .blikNotEnabled: return transaction(.notAllowed)
        case .blikCodeInvalid, .blikCodeUnknown, .blikCodeExpired, .blikCodeUsed, .blikVerificationFailed:
            return transaction(.invalidPayCode)

        case .cardPayloadInvalid, .cardPayloadReplayed: return card(.payloadRejected)
        case .invalidPan: return card(.invalidPan)
        case .invalidCardCountry: return card(.invalidCardCountry)
        case .brandMismatch: return card(.brandMismatch)
        case .unknownBrand: return card(.unknownBrand)
        case .unknownCvm: return card(.unknownCvm)
        case .invalidCardData: return card(.invalidCardData)
        case .countryNotPermitted:
            return .location(LocationError(.countryNotPermitted, code: code, message: message, status: status, field: field))

        // A throttled code check (registration or login): a wait, not a refusal of the code.
        case .tooManyAttempts:
            return .network(NetworkError(.tooManyAttempts, code: code, message: message, status: status, field: field))

        case .invalidRequest: return validation(.invalidRequest)
        case .invalidJson: return validation(.invalidJSON)
        case .unsupportedMediaType, .payloadTooLarge: return validation(.unsupportedRequest)

        // Codes of other surfaces (routing, the server's own failure, webhook tools, the portal), a
        // payment whose outcome is unknown, and codes from a newer host: the generic HTTP error.
        case .notFound, .methodNotAllowed, .internalError, .controlKeyRequired, .crossSiteRequest, .hostNotAllowed, .storageFull, .snapshotNotFound, .snapshotMismatch, .restoreInProgress,
            .outcomeUnknown,
            .webhookEventNotFound, .noWebhookEndpoint, .noSampleCard, .unknownMerchant, .forwardFailed,
            .missingHeader, .malformedHeader, .downgrade, .noMatchingSignature, .timestampOutsideTolerance,
            .environmentNotFound, .environmentUnavailable, .challengeOtherRegion, .requestNotFound, .faultNotFound, .injectedFault,
            .apmProviderUnavailable, .providerSignatureInvalid, .orderNotFound, .orderNotPayable, .orderPaid, .ruleNotFound, .customerNotFound,
            .unrecognized:
            return .network(NetworkError(.http, code: code, message: message, status: status, field: field))
        }
    }

    /// The SDK error for a reader failure.
    static func reader(_ error: ReaderError) -> TapOnMobileError {
        func reader(_ kind: CardReaderSessionError.Kind) -> TapOnMobileError {
            .cardReaderSession(CardReaderSessionError(kind, message: error.message))
        }
        switch error {
        case .busy: return reader(.busy)
        case .notPrepared: return reader(.notPrepared)
        case .appInBackground: return reader(.appInBackground)
        case .tokenCancelled: return reader(.tokenCancelled)
        case .accountLinkingCancelled: return reader(.accountLinkingCancelled)
        case .unreadableCard: return reader(.unreadableCard)
        case .locationDenied: return .location(LocationError(.denied, message: error.message))
        case .locationTimeout: return .location(LocationError(.timeout, message: error.message))
        case .invalidRequest:
            return .validation(
                ValidationError(.invalidRequest, message: "The amount must be above 0 and the currency an ISO 4217 code such as EUR."))
        default:
            if error.notice != nil {
                return .cardReaderSession(
                    CardReaderSessionError(.readerNotice, code: error.notice.map { "reader_notice_\($0.rawValue)" }, message: error.message))
            }
            if error.unsupportedReason != nil { return reader(.unsupported) }
            return reader(.readerFailure)
        }
    }
}
