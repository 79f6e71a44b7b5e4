/// The request bodies of the terminal API's steps after a sale or refund began
/// (docs/card-payments.md): what the SDK sends and the host reads, one type each. Absent
/// optionals are left out when written.
///
/// ```swift
/// PaymentBodies.DCC(dccOfferAccepted: true)
/// // {"dccOfferAccepted":true}  →  POST /terminal/v1/transactions/{id}/dcc
/// ```
public enum PaymentBodies {
    /// `POST /terminal/v1/transactions/{id}/reversal`; absent means `false` (`CANCELLED`).
    public struct Reversal: Codable, Sendable, Equatable {
        public let isCancelledByUser: Bool?
        /// The sale's whole amount, when the caller states it (PagBank's cancel): another amount is 409 `amount_mismatch`.
        public let expectedAmount: Int?
        /// The card read again for the cancel (Geopagos' `confirmCancel(card:)`), when the caller
        /// has one: a card other than the sale's is 409 `card_mismatch`.
        public let cardPayload: String?
        public init(isCancelledByUser: Bool?, expectedAmount: Int? = nil, cardPayload: String? = nil) {
            self.isCancelledByUser = isCancelledByUser
            self.expectedAmount = expectedAmount
            self.cardPayload = cardPayload
        }
    }

    /// `POST /terminal/v1/transactions/{id}/dcc`: the customer's choice.
    public struct DCC: Codable, Sendable, Equatable {
        public let dccOfferAccepted: Bool
        public init(dccOfferAccepted: Bool) { self.dccOfferAccepted = dccOfferAccepted }
    }

    /// `POST /terminal/v1/transactions/{id}/pin`: the online PIN, sealed by the reader.
    public struct Pin: Codable, Sendable, Equatable {
        public let pinPayload: String
        public init(pinPayload: String) { self.pinPayload = pinPayload }
    }

    /// `POST /terminal/v1/transactions/{id}/receipt`: `qrCode` or `email`, and the address for an e-mail.
    public struct Receipt: Codable, Sendable, Equatable {
        public let receiptType: String
        public let email: String?
        public init(receiptType: String, email: String?) {
            self.receiptType = receiptType
            self.email = email
        }
    }
}
