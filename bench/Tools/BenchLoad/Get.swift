import Foundation
import Synchronization
import SandboxHTTPClient

// MARK: - get: history, count, statistics

func get(_ arguments: Arguments) {
    let base = arguments.required("url")
    let token = arguments.required("token")
    let paths = arguments.strings("path")
    guard !paths.isEmpty else { fail("get needs --path") }
    let pages: ClosedRange<Int> = {
        let parts = (arguments.string("pages") ?? "1-1").split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 1, parts[0] <= parts[1] else { fail("--pages must be FIRST-LAST") }
        return parts[0]...parts[1]
    }()
    let expectContains = arguments.string("expect-contains")
    runLoad(
        label: arguments.string("label") ?? "get", connections: arguments.int("connections", default: 2),
        warmup: arguments.double("warmup", default: 1), duration: arguments.double("duration", default: 5),
        warmupRequests: arguments.string("warmup-requests") == nil ? nil : arguments.int("warmup-requests", default: 1),
        latenciesFile: arguments.string("latencies")
    ) { index in
        let client = HTTPClient(configuration: .init(maxIdleHandles: 1))
        let headers: HTTPClientHeaders = ["Authorization": "Bearer " + token]
        let turn = Mutex(index)
        return {
            let next = turn.withLock { value in defer { value += 1 }; return value }
            let path = paths[next % paths.count].replacingOccurrences(of: "{page}", with: String(Int.random(in: pages)))
            let response: HTTPClientResponse
            do {
                response = try client.send(HTTPClientRequest(url: base + path, headers: headers))
            } catch {
                return .failed("transport: \(error)")
            }
            guard response.status == 200 else { return .failed("\(path): " + describe(response)) }
            if let expectContains, !holds(response.body, expectContains) { return .failed("\(path): " + describe(response)) }
            return .ok
        }
    }
}
