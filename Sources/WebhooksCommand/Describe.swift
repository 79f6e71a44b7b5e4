import WebhookSignature

/// Words for what a verification established, shared by `verify` and `listen`.
enum Describe {
    static func verified(_ webhook: VerifiedWebhook) -> String {
        var text = "\(webhook.scheme.rawValue) t=\(webhook.timestamp)"
        if let id = webhook.id { text += " id=\(id)" }
        return text
    }
}
