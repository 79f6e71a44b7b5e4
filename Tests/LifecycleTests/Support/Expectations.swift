import Foundation
import SandboxTestSupport
import Testing

// The lifecycle suite's own expectations beside TestSupport's `expectReply`.

/// A check step for a `verify` call given a code or token that must not pass: the contract answers
/// verify with `{valid}`, so either `200 {"valid": false}` (with `reason` equal to the code, if the
/// host gives one) or the specific error is accepted.
func expectNotValid(
    _ reply: HTTPReply, _ status: Int, _ code: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    if reply.status == 200 {
        #expect(
            reply.bool("valid") == false, "\(step): a bad code/token was called valid: \(reply)", sourceLocation: sourceLocation)
        // The host may say why beside `valid`; when it does, it must be the same code.
        if let reason = reply.string("reason") {
            #expect(reason == code, "\(step): expected reason \(code); got \(reply)", sourceLocation: sourceLocation)
        }
    } else {
        expectReply(reply, status, code, step, sourceLocation: sourceLocation)
    }
}

/// Expects an ISO 8601 UTC time string (`2026-11-29T12:00:00Z`, fractions allowed).
func expectTime(_ value: Any?, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let text = value as? String ?? ""
    #expect(
        text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$"#, options: .regularExpression) != nil,
        "\(step): \(String(describing: value)) is not an ISO 8601 UTC time", sourceLocation: sourceLocation)
}
