import SimulatedReader

/// How the host's error codes (docs/terminal-lifecycle.md, docs/card-payments.md) and the
/// reader's errors become SDK errors.
extension TapOnMobileError {
    /// The SDK error for the host's envelope `{"error": {"code", "message", "field"}}`.
    ///
    /// A code the table does not know becomes ``NetworkError/http(status:code:message:)``. `status`
    /// is nil for a refusal the host reported inside a 200 answer (a verify call's `reason`).
    static func host(status: Int?, code: String, message: String, field: String?) -> TapOnMobileError {
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
        switch code {
        case "challenge_not_found", "backoffice_code_invalid", "registration_token_invalid": return registration(.invalidCode)
        case "challenge_expired", "backoffice_code_expired", "registration_token_expired": return registration(.codeExpired)
        case "challenge_used", "backoffice_code_used", "registration_token_used": return registration(.codeUsed)
        case "backoffice_code_wrong_environment", "registration_token_wrong_environment": return registration(.wrongEnvironment)
        case "backoffice_code_wrong_device", "registration_wrong_device": return registration(.wrongDevice)
        case "registration_out_of_order": return registration(.outOfOrder)
        case "terminal_in_use": return registration(.terminalInUse)
        case "no_free_terminal": return registration(.noFreeTerminal)
        case "registration_method_not_allowed": return registration(.methodNotAllowed)
        case "device_already_registered": return registration(.alreadyRegistered)
        case "terminal_not_found", "merchant_not_found", "terminal_not_registered": return registration(.terminalNotFound)

        case "unauthorized": return session(.sessionError)
        case "session_expired": return session(.sessionExpired)
        case "session_expiring": return session(.sessionExpiring)
        case "terminal_unregistered": return session(.terminalUnregistered)
        case "certificates_expired": return session(.certificatesExpired)
        case "invalid_pin": return session(.invalidPin)
        case "secure_code_locked": return session(.locked)
        case "pin_required": return session(.pinRequired)

        case "terminal_busy": return transaction(.busy)
        case "transaction_not_found", "receipt_not_found": return transaction(.notFound)
        case "refund_not_allowed", "reversal_not_allowed": return transaction(.notAllowed)
        case "invalid_amount", "amount_over_limit", "refund_over_amount": return transaction(.invalidAmount)
        case "invalid_currency", "currency_mismatch": return transaction(.invalidCurrency)
        case "tips_not_allowed", "tip_over_limit": return transaction(.invalidTip)
        case "invalid_reference", "reference_not_unique": return transaction(.invalidReference)
        case "transaction_not_cancellable": return transaction(.notCancellable)
        case "transaction_still_cancellable": return transaction(.stillCancellable)
        case "already_refunded": return transaction(.alreadyRefunded)
        case "transaction_not_refundable": return transaction(.notRefundable)
        case "transaction_wrong_state": return transaction(.wrongState)
        case "checkout_not_found", "checkout_used", "checkout_expired", "checkout_mismatch": return transaction(.checkoutRejected)
        case "idempotency_key_reused": return transaction(.idempotencyKeyReused)

        case "card_payload_invalid", "card_payload_replayed": return card(.payloadRejected)
        case "invalid_pan": return card(.invalidPan)
        case "invalid_card_country": return card(.invalidCardCountry)
        case "brand_mismatch": return card(.brandMismatch)
        case "unknown_brand": return card(.unknownBrand)
        case "unknown_cvm": return card(.unknownCvm)
        case "invalid_card_data": return card(.invalidCardData)
        case "country_not_permitted":
            return .location(LocationError(.countryNotPermitted, code: code, message: message, status: status, field: field))

        case "invalid_request": return validation(.invalidRequest)
        case "invalid_json": return validation(.invalidJSON)
        case "unsupported_media_type", "payload_too_large": return validation(.unsupportedRequest)

        default:
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
