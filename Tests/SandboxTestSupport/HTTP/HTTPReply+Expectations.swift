import Foundation
import Testing

/// Expects `status` and, for an error, the envelope `{"error": {"code", "message"}}` with `code`.
///
/// `step` names what the test was doing; the reply names the region and the request.
@discardableResult
public func expectReply(
    _ reply: HTTPReply, _ status: Int, _ code: String? = nil, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) -> HTTPReply {
    let wanted = code.map { "\(status) \($0)" } ?? "\(status)"
    let envelope = reply.errorCode?.isEmpty == false && reply.errorMessage?.isEmpty == false
    if reply.status != status || (code != nil && reply.errorCode != code) {
        Issue.record("\(step): expected \(wanted); got \(reply)", sourceLocation: sourceLocation)
    } else if status >= 400 && !envelope {
        Issue.record(
            "\(step): not the error envelope {\"error\": {\"code\", \"message\"}}: \(reply)", sourceLocation: sourceLocation)
    }
    return reply
}

/// Expects `status` with one of `codes`, for a refusal whose code the docs do not name.
@discardableResult
public func expectReply(
    _ reply: HTTPReply, _ status: Int, oneOf codes: Set<String>, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) -> HTTPReply {
    if reply.status != status || !codes.contains(reply.errorCode ?? "") || (reply.errorMessage ?? "").isEmpty {
        Issue.record("\(step): expected \(status) with one of \(codes.sorted()); got \(reply)", sourceLocation: sourceLocation)
    }
    return reply
}

/// Whether `text` matches the regular expression `pattern` (false for no text).
public func matches(_ text: String?, _ pattern: String) -> Bool {
    guard let text else { return false }
    return text.range(of: pattern, options: .regularExpression) != nil
}
