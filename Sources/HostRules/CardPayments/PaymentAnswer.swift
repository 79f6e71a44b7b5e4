import FastJSON
import HostStorage

/// What a payment operation answers, before HTTP (the routes make it a response): a value to
/// encode where the answer is sent, or an answer already encoded: kept under its `Idempotency-Key`
/// with the change, or read back for a repeated key.
package enum PaymentAnswer: Sendable {
    case fresh(any Encodable & Sendable, status: Int)
    case stored(status: Int, body: [UInt8], replayed: Bool)

    /// `value` encoded now (the wire's sorted JSON), to keep under a key with the change.
    package static func encoded(_ value: some Encodable & Sendable, status: Int) throws -> PaymentAnswer {
        .stored(status: status, body: try SortedJSONEncoder.encode(value), replayed: false)
    }

    /// The first answer to a key, answered again to a repeated request.
    package static func replay(_ kept: TransactionRepository.KeptAnswer) -> PaymentAnswer {
        .stored(status: kept.status, body: kept.body, replayed: true)
    }

    /// What a kept answer stores: its status and bytes (nil for one not encoded yet).
    package var kept: (status: Int, body: [UInt8])? {
        if case .stored(let status, let body, _) = self { return (status, body) }
        return nil
    }
}

/// How an operation that answers once its change is durable hands its answer back: it calls
/// this with a closure the sending thread runs, so the answer is encoded there, not on the
/// store's syncer thread.
package typealias Answered<Answer: Sendable> = @Sendable (@escaping @Sendable () -> Result<Answer, any Error>) -> Void
