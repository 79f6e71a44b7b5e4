/// What a successful verification established about a webhook.
public struct VerifiedWebhook: Equatable, Hashable, Sendable {
    /// The scheme whose signature matched.
    public let scheme: WebhookScheme
    /// The `webhook-id` (Standard Webhooks): use it to drop a redelivered message. Nil for MONEI,
    /// whose events carry their id in the body.
    public let id: String?
    /// The signed timestamp, in Unix seconds.
    public let timestamp: Int

    public init(scheme: WebhookScheme, id: String?, timestamp: Int) {
        self.scheme = scheme
        self.id = id
        self.timestamp = timestamp
    }
}
