/// One webhook delivery as the sandbox's webhook inbox received it (`GET /api/events` of the
/// inbox), for the inbox that keeps it and the tests that read it (`SandboxTesting`).
public struct InboxDelivery: Codable, Sendable, Equatable {
    public let receivedAt: String
    public let region: String
    public let merchantId: String
    public let eventId: String?
    /// `payment.succeeded`, `refund.succeeded` …
    public let type: String?
    /// `valid`, or why not (`no matching signature`, …); `not checked` for Standard Webhooks,
    /// whose per-merchant secret only the host knows.
    public let signature: String
    /// The delivery's `monei-*`, `webhook-*` and `content-type` headers.
    public let headers: [String: String]
    public let body: String

    public init(
        receivedAt: String, region: String, merchantId: String, eventId: String?, type: String?, signature: String,
        headers: [String: String], body: String
    ) {
        self.receivedAt = receivedAt
        self.region = region
        self.merchantId = merchantId
        self.eventId = eventId
        self.type = type
        self.signature = signature
        self.headers = headers
        self.body = body
    }
}
