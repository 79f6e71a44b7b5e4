import Foundation
import SandboxTestSupport

/// An answer of a host, read as JSON when it is.
struct Answer: CustomStringConvertible {
    var status: Int
    var text: String

    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] }
    var description: String { "\(status) \(text)" }
}

struct TransportFailure: Error, CustomStringConvertible {
    var description: String
}

/// One request to a sandbox host (the back office, the sandbox clock), as the portal makes it.
func request(_ method: String, _ url: String, bearer: String? = nil, body: String? = nil) throws -> Answer {
    let reply = Service(baseURL: url).call(method, "", bearer: bearer, raw: body)
    guard reply.status != 0 else { throw TransportFailure(description: reply.description) }
    return Answer(status: reply.status, text: reply.text)
}
