import Foundation
import SandboxTestSupport
import Testing

// The payment suite's reading of TestSupport's `HTTPReply`: TransactionDetail answers, and the time
// and query texts its requests are written with.

extension HTTPReply {
    /// `transactionStatus` of a TransactionDetail.
    var txStatus: String? { string("transactionStatus") }
    var transactionId: String? { string("transactionId") }
}

/// Expects a TransactionDetail answer (`status` 200/201) whose `transactionStatus` is `transactionStatus`
/// and, when given, whose `responseCode` is `responseCode`.
@discardableResult
func expectTransaction(
    _ reply: HTTPReply, _ status: Int, _ transactionStatus: String, responseCode: String?? = .none, _ step: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> HTTPReply {
    expectReply(reply, status, nil, step, sourceLocation: sourceLocation)
    if reply.status == status {
        #expect(
            reply.txStatus == transactionStatus,
            "\(step): expected transactionStatus \(transactionStatus); got \(reply)", sourceLocation: sourceLocation)
        // Every TransactionDetail answer carries the seed's 37 keys.
        expectDetailShape(reply, step, sourceLocation: sourceLocation)
        if case .some(let code) = responseCode {
            #expect(
                reply.string("responseCode") == code,
                "\(step): expected responseCode \(code ?? "null"); got \(reply)", sourceLocation: sourceLocation)
        }
    }
    return reply
}

/// `date` written in the +02:00 offset, e.g. `2026-11-29T14:00:00.000+02:00` (or without fractions).
func plusTwo(_ date: Date, fractions: Bool = true) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 2 * 3600)
    formatter.dateFormat = fractions ? "yyyy-MM-dd'T'HH:mm:ss.SSSxxx" : "yyyy-MM-dd'T'HH:mm:ssxxx"
    return formatter.string(from: date)
}

/// `date` in UTC, `2026-11-29T12:00:00Z`.
func utc(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}

/// Percent-encodes a query value (`+` and `:` included).
func q(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
}
