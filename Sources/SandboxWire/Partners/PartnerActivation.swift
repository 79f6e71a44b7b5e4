/// `POST /terminal/v1/partner-activations`: a partner app (PagBank's Tap On) activates a device for one of its
/// sellers with its `appKey` (docs/pagbank.md).
public struct PartnerActivationRequest: Codable, Sendable, Equatable {
    /// The partner app's key (`sandbox-data/merchants.json`, the region's `partners`).
    public let appKey: String
    /// The seller (a merchant id the partner serves); the partner's first when left out.
    public let sellerId: String?

    public init(appKey: String, sellerId: String? = nil) {
        self.appKey = appKey
        self.sellerId = sellerId
    }
}

/// The answer: a registration token for a free terminal of the seller, which the device registers
/// with (verify, begin, end), as a backend-to-backend registration.
///
/// ```json
/// {"registrationToken": "rt_pagbank_…", "terminalId": "PAGBANK-T0101", "sellerId": "PAGBANK-M01",
///  "sellerName": "Padaria Pão de Mel", "partnerName": "Loja Fácil", "expiresAt": "2026-12-04T10:00:00Z"}
/// ```
public struct PartnerActivation: Codable, Sendable, Equatable {
    public let registrationToken: String
    public let terminalId: String
    public let sellerId: String
    public let sellerName: String
    public let partnerName: String
    /// When the token stops being accepted (a day on).
    public let expiresAt: String

    public init(registrationToken: String, terminalId: String, sellerId: String, sellerName: String, partnerName: String, expiresAt: String) {
        self.registrationToken = registrationToken
        self.terminalId = terminalId
        self.sellerId = sellerId
        self.sellerName = sellerName
        self.partnerName = partnerName
        self.expiresAt = expiresAt
    }
}
