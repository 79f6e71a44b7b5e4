#if os(Linux)
import Foundation
import SandboxHTTPClient

/// The libcurl engine: `SandboxHTTPClient`, whose transfer a cancelled task aborts.
struct CurlEngine: Sending {
    private let curl: HTTPClient

    init(timeout: TimeInterval, userAgent: String) {
        curl = HTTPClient(
            configuration: .init(
                connectTimeout: .milliseconds(Int64(min(timeout, 5) * 1000)), totalTimeout: .milliseconds(Int64(timeout * 1000)),
                maxResponseBodySize: 16 << 20, userAgent: userAgent))
    }

    func send(_ method: String, _ url: URL, headers: [String: String], body: Data?) async -> DeviceTransport.Outcome {
        let target = url.absoluteString
        var fields: HTTPClientHeaders = ["Accept": "application/json"]
        for (name, value) in headers { fields.add(name: name, value: value) }
        let call = HTTPClientRequest(method: .init(rawValue: method), url: target, headers: fields, body: body.map { [UInt8]($0) } ?? [])
        do {
            let response = try await curl.send(call)
            return .answer(status: response.status, body: Data(response.body))
        } catch where error == .timedOut {
            return .failed(.timeout(target))
        } catch where error == .cancelled {
            return .failed(.cancelled(target))
        } catch where error == .transport || error == .responseTooLarge {
            // Connected and sent: the answer broke off (an empty reply, a cut body, a reset).
            return .failed(.connectionLost(target, error.message))
        } catch {
            return .failed(.unreachable(target, error.message))
        }
    }
}
#endif
