import HostStorage
import Foundation
import SandboxStore
import SandboxWire

/// What the wallet notifies (`POST /provider/v1/notifications`): a scan, a payment, a decline, an
/// expiry, a refund's outcome. Each one is applied in one database transaction with the webhook
/// it calls for and the record of its id, so a repeat changes nothing and a host killed half-way
/// has all of it or none (then the wallet sends it again).
extension APMPayments {
    /// Verifies, decodes (`decode`, after the signature: an unsigned body is not read) and applies
    /// one notification; `completion` hears the outcome once it is durable (on the store's thread:
    /// it only shapes the answer): taken, and whether the write owes the wallet a call (the order's
    /// deadline had passed and was applied on the way: the close is queued), or the refusal. A bad
    /// signature or body throws here, before anything is written.
    ///
    /// Errors, thrown or given to `completion`: `provider_signature_invalid` (401), `invalid_json` /
    /// `invalid_request` (400), `transaction_not_found` (404), `apm_order_closed` (409) when the
    /// order can no longer take it: then the wallet does not charge the customer (nor pay a refund out).
    package func notify(
        headers: [String: String], body: [UInt8], decode: () throws -> WalletProvider.Notification,
        then completion: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) throws {
        let signedNow = Int(wallet.wallClock.now().timeIntervalSince1970.rounded(.down))
        try WalletSignature.verify(headers: headers, body: body, region: region.id, secret: wallet.secret, now: signedNow)
        let note = try decode()
        _ = try Validate.identifier(note.id, field: "id")
        _ = try Validate.identifier(note.orderId, field: "orderId")
        let isRefund = note.type == .refundSucceeded || note.type == .refundFailed
        let target: String
        if isRefund {
            guard let refundId = note.refundId else {
                throw PaymentError.invalidRequest("A refund notification names its refundId.", field: "refundId")
            }
            target = try Validate.identifier(refundId, field: "refundId")
        } else {
            target = note.orderId
        }
        let now = payments.now()
        // A refusal is answered after the commit: a deadline applied on the way stays applied.
        store.write({ [self] db -> (refusal: PaymentError?, owesWallet: Bool) in
            if try db.apm.wasTaken(notification: note.id) { return (nil, false) }
            guard var record = try db.apm.record(id: target), record.type == (isRefund ? .REFUND : .AUTH),
                !isRefund || record.originalID == note.orderId
            else {
                throw PaymentError(
                    status: 404, code: .transactionNotFound, message: "This host has no QR \(isRefund ? "refund" : "order") with that id.",
                    field: isRefund ? "refundId" : "orderId")
            }
            var timedOut = false
            if let deadline = record.pendingUntil, deadline <= now {
                try outbox.timeOut(db, [record], message: nil, at: now)
                record = try db.apm.record(id: target) ?? record
                timedOut = true
            }
            if let refusal = try apply(db, note, to: &record, at: now) { return (refusal, timedOut) }
            _ = try db.apm.take(notification: note.id, type: note.type.rawValue, transaction: record.id, at: now)
            return (nil, timedOut)
        }) { outcome in
            completion(outcome.flatMap { written in written.refusal.map { .failure($0) } ?? .success(written.owesWallet) })
        }
    }

    /// Changes `record` as `note` says, with its webhook; nil when taken (a repeat of an outcome
    /// already there is taken too), else the refusal.
    private func apply(
        _ db: Connection, _ note: WalletProvider.Notification, to record: inout TransactionRecord, at now: Int64
    ) throws -> PaymentError? {
        let open = record.status == .NEW || record.status == .ONGOING
        func final(_ change: (inout TransactionRecord) -> Void) throws {
            change(&record)
            try record.save(db, at: now)
            try outbox.record(db, record, at: now)
        }
        switch note.type {
        case .orderScanned:
            if record.status == .NEW {
                record.moveAPM(to: .ONGOING, by: .scanned, at: now)
                try record.save(db, at: now)
            } else if !open && record.status != .CLEARED && record.status != .REFUNDED {
                return .apmOrderClosed(record.status)
            }
        case .orderPaid:
            if open {
                try final {
                    $0.moveAPM(to: .CLEARED, by: .paid, at: now)
                    $0.apmProviderReference = note.paymentId
                    $0.responseCode = "00"
                    $0.responseMessage = "Approved"
                }
            } else if record.status != .CLEARED && record.status != .REFUNDED {
                return .apmOrderClosed(record.status)
            }
        case .orderDeclined:
            let reason = try Self.declineReason(note.reason, required: true)
            if open {
                try final {
                    $0.moveAPM(to: .DECLINED, by: .declined, at: now)
                    $0.apmDeclineReason = reason.rawValue
                    $0.responseCode = reason.response.code
                    $0.responseMessage = reason.response.message
                }
            } else if record.status != .DECLINED {
                return .apmOrderClosed(record.status)
            }
        case .orderExpired:
            if open {
                try final {
                    $0.moveAPM(to: .TIMEOUT, by: .expired, at: now)
                    $0.responseMessage = "The order expired at the wallet"
                }
            } else if record.status != .TIMEOUT {
                return .apmOrderClosed(record.status)
            }
        case .refundSucceeded:
            if record.status == .ONGOING {
                try final {
                    $0.moveAPM(to: .CLEARED, by: .refundSucceeded, at: now)
                    $0.apmProviderReference = note.paymentId
                    $0.responseCode = "00"
                    $0.responseMessage = "Refunded"
                }
                try settle(db, refund: record, at: now)
            } else if record.status != .CLEARED {
                return .apmOrderClosed(record.status)
            }
        case .refundFailed:
            let reason = try Self.declineReason(note.reason, required: false)
            if record.status == .ONGOING {
                try final {
                    $0.moveAPM(to: .DECLINED, by: .refundFailed, at: now)
                    $0.apmDeclineReason = reason.rawValue
                    $0.responseCode = reason.response.code
                    $0.responseMessage = reason.response.message
                }
            } else if record.status != .DECLINED {
                return .apmOrderClosed(record.status)
            }
        }
        return nil
    }

    /// The `reason` of a decline; a refund's refusal without one is the provider's.
    private static func declineReason(_ text: String?, required: Bool) throws(PaymentError) -> APMDeclineReason {
        guard let text else {
            if required { throw PaymentError.invalidRequest("A decline names its reason.", field: "reason") }
            return .declined_by_provider
        }
        guard let reason = APMDeclineReason(rawValue: text) else {
            throw PaymentError.invalidRequest(
                "reason must be one of \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", ")).", field: "reason")
        }
        return reason
    }
}
