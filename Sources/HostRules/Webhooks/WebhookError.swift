import HostStorage
import SandboxWire

/// The refusals of the webhook log, replay and sample events, with their stable codes
/// (docs/webhooks.md, "Error codes"): thrown by the rules and routes, answered by the router.
package struct WebhookError: ServiceError, Equatable {
    package let status: Int
    package let code: ErrorCode
    package let message: String
    package var field: String? = nil

    package static let eventNotFound = WebhookError(
        status: 404, code: .webhookEventNotFound, message: "No such webhook event.", field: "eventId")
    /// A sample event that the outbox sent nowhere, because the merchant has no endpoint.
    package static let noWebhookEndpoint = WebhookError(status: 409, code: .noWebhookEndpoint, message: "The merchant has no webhook endpoint.")
    /// `cards.json` has no card to make the sample with: a declined one for a `*.failed` event.
    package static func noSampleCard(declined: Bool) -> WebhookError {
        WebhookError(
            status: 409, code: .noSampleCard,
            message: declined
                ? "cards.json has no card flagged decline (without a PIN) to make a failed sample with."
                : "cards.json has no card without flags and PIN to make a sample with.")
    }
}
