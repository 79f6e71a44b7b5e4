import WebhookSignature

/// Verifies a received webhook's MONEI signature (system clock, default tolerance).
enum WebhookSignatureCheck {
    static func monei(_ event: Receiver.Received, key: String) throws {
        try WebhookVerifier.verify(scheme: .monei, headers: event.headers, body: event.body, secret: key)
    }
}
