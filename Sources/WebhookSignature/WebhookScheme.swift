/// The two webhook signature schemes the sandbox signs with and verifies.
///
/// ```swift
/// let scheme = WebhookScheme(rawValue: merchant.webhookScheme) ?? .monei
/// ```
public enum WebhookScheme: String, Codable, Sendable, CaseIterable {
    /// `MONEI-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(key, "<t>.<body>")>`,
    /// keyed with the merchant's API key (Stripe's `Stripe-Signature` is the same construction).
    case monei
    /// Standard Webhooks v1: `webhook-id`, `webhook-timestamp` and
    /// `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`,
    /// keyed with the base64-decoded part of a `whsec_…` secret.
    case standard
}
