import WebhookSignature

/// Handles a POST from the acquirer: true means "genuine, fulfil the order and answer 2xx".
///
/// `headers` and `body` are the request's, untouched: verify the raw bytes before any JSON parsing.
func receivePaymentWebhook(headers: [String: String], body: [UInt8], apiKey: String) -> Bool {
    do {
        // MONEI-Signature: t=…,v1=… ; use .standard and the whsec_… secret for Standard Webhooks.
        let webhook = try WebhookVerifier.verify(scheme: .monei, headers: headers, body: body, secret: apiKey)
        print("genuine webhook signed at \(webhook.timestamp)")
        return true
    } catch {
        // error.reason: missing_header, malformed_header, downgrade, no_matching_signature,
        // timestamp_outside_tolerance. Answer 400 and do not fulfil.
        print("refused webhook: \(error.reason)")
        return false
    }
}
