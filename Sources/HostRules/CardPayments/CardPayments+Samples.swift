import HostStorage
import Foundation
import SandboxCore

/// The sample payments of `POST /_sandbox/webhooks/trigger`.
extension CardPayments {
    /// The event types a sample can report.
    package static let sampleEvents = ["payment.succeeded", "payment.failed", "payment.canceled", "refund.succeeded", "refund.failed"]

    /// A payment of 10.00 in the region's currency that ended as `event` says, made by the steps a
    /// real one takes (the card copied as a read copies it, the issuer's approval or refusal, a
    /// reversal), so its webhook has the shape of a real one: a `CLEARED` sale has response code
    /// `00`, an authorisation code and a card, a failed one the issuer's `05`, a refund names its sale.
    ///
    /// It is not stored: it touches no terminal's history, busy rule or totals. Its `paymentId` is a
    /// fresh transaction id (its refund's sale one too), its `orderId` is `sample`.
    ///
    /// - Throws: 409 `no_sample_card` when sandbox-data/cards.json has no card to pay it with.
    package func sample(_ event: String, merchant: String, terminal: String, at now: Int64) throws -> TransactionRecord {
        precondition(Self.sampleEvents.contains(event), "not a sample event type: \(event)")
        let refund = event.hasPrefix("refund.")
        let declined = event.hasSuffix(".failed")
        guard let card = data.issuer.sampleCard(declining: declined) else {
            throw WebhookError.noSampleCard(declined: declined)
        }
        var record = TransactionRecord(
            id: transactionID(at: now), terminalID: terminal, merchantID: merchant, type: refund ? .REFUND : .AUTH, status: .NEW,
            amount: 1000, tipAmount: nil, currency: region.currency.code, reference: "sample", at: now)
        if refund { record.originalID = transactionID(at: now) }
        attach(card, panHash: Issuer.key(card.pan), to: &record)
        if declined {
            // The issuer refuses a card flagged decline whatever the amount.
            authorise(&record, by: .card, at: now)
        } else {
            // Approved as the issuer approves (not through the magic amounts, which a tester may change).
            approve(&record, by: .card, code: MagicOutcome.approved.responseCode, message: MagicOutcome.approved.responseMessage, at: now)
        }
        if event == "payment.canceled" { cancel(&record, byUser: false, at: now) }
        return record
    }
}
