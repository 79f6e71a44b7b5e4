import SandboxWire

/// What a call that has nothing else to return gives on success (seed `Success`).
///
/// A reversal sets ``transactionStatus`` to the status the reversed sale ended in
/// (`CANCELLED`, or `USER_CANCELLED` when the customer cancelled).
///
/// ```swift
/// if case .success(let success) = await sdk.doReversal(transactionId: id) {
///     print(success.transactionStatus == .CANCELLED)
/// }
/// ```
public struct Success: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The resulting transaction status, for calls that change one (reversal); `nil` otherwise.
    public let transactionStatus: TransactionStatus?

    /// A success, optionally naming the status a transaction ended in.
    public init(transactionStatus: TransactionStatus? = nil) {
        self.transactionStatus = transactionStatus
    }

    public var description: String {
        transactionStatus.map { "Success(\($0.rawValue))" } ?? "Success"
    }
}
