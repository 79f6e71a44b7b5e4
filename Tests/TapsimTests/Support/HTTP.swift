import Foundation
import SandboxHTTPClient

/// An answer of a host, read as JSON when it is.
struct Answer: CustomStringConvertible {
    var status: Int
    var text: String

    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] }
    var description: String { "\(status) \(text)" }
}

/// One request to a sandbox host (the back office, the sandbox clock), as the portal makes it.
func request(_ method: String, _ url: String, bearer: String? = nil, body: String? = nil) throws -> Answer {
    var headers: HTTPClientHeaders = ["Accept": "application/json"]
    if let bearer { headers = ["Accept": "application/json", "Authorization": "Bearer \(bearer)"] }
    var fields = headers
    if body != nil {
        fields = HTTPClientHeaders(
            [.init(name: "Content-Type", value: "application/json")]
                + [.init(name: "Accept", value: "application/json")]
                + (bearer.map { [HTTPClientHeaders.Field(name: "Authorization", value: "Bearer \($0)")] } ?? []))
    }
    let response = try HTTPClient().send(
        HTTPClientRequest(
            method: HTTPClientRequest.Method(rawValue: method), url: url, headers: fields, body: Array((body ?? "").utf8),
            timeout: .seconds(10)))
    return Answer(status: response.status, text: response.bodyText)
}
