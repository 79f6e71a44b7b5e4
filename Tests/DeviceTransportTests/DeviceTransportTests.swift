import DeviceTransport
import Foundation
import HostTestSupport
import Testing
import SandboxTestSupport

/// The device libraries' HTTP, over each engine this platform has (URLSession and, on Linux,
/// libcurl), against a real host and its faults: the same fault gives the same outcome on both.
@Suite("Device transport", .blocksThreads)
struct DeviceTransportTests {
    static let engines = DeviceTransport.Engine.allCases

    @Test("an answer comes back whole, whatever its status", arguments: engines)
    func answers(engine: DeviceTransport.Engine) async throws {
        let host = try InProcessHost(region: "EU")
        defer { host.stop() }
        let transport = DeviceTransport(timeout: 15, userAgent: "DeviceTransportTests", engine: engine)
        guard case .answer(200, let body) = await transport.send("GET", try url(host, "/v1/environment")) else {
            Issue.record("no answer")
            return
        }
        #expect(String(decoding: body, as: UTF8.self).contains("\"EU\""))
        let refused = await transport.send(
            "POST", try url(host, "/terminal/v1/sessions"), headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        guard case .answer(let status, let envelope) = refused else {
            Issue.record("no answer: \(refused)")
            return
        }
        #expect(status == 400)
        #expect(String(decoding: envelope, as: UTF8.self).hasPrefix("{\"error\":"))
    }

    @Test("nothing listening: unreachable, the request was not sent", arguments: engines)
    func unreachable(engine: DeviceTransport.Engine) async throws {
        let port = freePort()
        let transport = DeviceTransport(timeout: 15, userAgent: "DeviceTransportTests", engine: engine)
        let outcome = await transport.send("GET", try #require(URL(string: "http://127.0.0.1:\(port)/healthz")))
        #expect(kind(outcome) == .unreachable, "\(outcome)")
    }

    @Test("the host stores the call and closes without answering: connection lost, the outcome unknown", arguments: engines)
    func dropped(engine: DeviceTransport.Engine) async throws {
        let host = try InProcessHost(region: "EU")
        defer { host.stop() }
        try await fault(host, ["match": ["path": "/v1/environment"], "count": 1, "action": "drop"])
        let transport = DeviceTransport(timeout: 15, userAgent: "DeviceTransportTests", engine: engine)
        let outcome = await transport.send("GET", try url(host, "/v1/environment"))
        #expect(kind(outcome) == .connectionLost, "\(outcome)")
    }

    @Test("the host answers after the transport's timeout: timeout", arguments: engines)
    func slow(engine: DeviceTransport.Engine) async throws {
        let host = try InProcessHost(region: "EU")
        defer { host.stop() }
        try await fault(host, ["match": ["path": "/v1/environment"], "count": 1, "action": "delay", "delayMilliseconds": 4000])
        let transport = DeviceTransport(timeout: 1, userAgent: "DeviceTransportTests", engine: engine)
        let outcome = await transport.send("GET", try url(host, "/v1/environment"))
        #expect(kind(outcome) == .timeout, "\(outcome)")
    }

    @Test("a call cancelled after its request went out ends at once, as possibly received", arguments: engines)
    func cancelledInFlight(engine: DeviceTransport.Engine) async throws {
        let listener = try #require(HeldPort())
        let transport = DeviceTransport(timeout: 120, userAgent: "DeviceTransportTests", engine: engine)
        let target = try #require(URL(string: "http://127.0.0.1:\(listener.port)/terminal/v1/transactions/sale"))
        let call = Task { await transport.send("POST", target, headers: ["Content-Type": "application/json"], body: Data("{}".utf8)) }
        // The listener takes the request and never answers.
        let (connection, request) = await receive(on: listener)
        defer { close(connection) }
        #expect(request.hasPrefix("POST /terminal/v1/transactions/sale "), "\(request)")
        call.cancel()
        let outcome = await call.value
        // Ignoring the cancel, the call would wait for its 120 s timeout and report `timeout`.
        #expect(kind(outcome) == .connectionLost, "\(outcome)")
    }

    @Test("a call whose task is cancelled before it starts sends nothing", arguments: engines)
    func cancelledBeforeSending(engine: DeviceTransport.Engine) async throws {
        let listener = try #require(HeldPort())
        let transport = DeviceTransport(timeout: 15, userAgent: "DeviceTransportTests", engine: engine)
        let target = try #require(URL(string: "http://127.0.0.1:\(listener.port)/healthz"))
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await transport.send("GET", target)
        }.value
        #expect(kind(outcome) == .unreachable, "\(outcome)")
        #expect(listener.takeConnections() == 0)
    }

    // MARK: Helpers

    private func url(_ host: InProcessHost, _ path: String) throws -> URL {
        try #require(URL(string: host.service.baseURL + path))
    }

    private func fault(_ host: InProcessHost, _ body: [String: Any]) async throws {
        let reply = await host.service.call("POST", "/_sandbox/faults", body: body)
        try #require(reply.status == 201 || reply.status == 200, "\(reply.text)")
    }

    private func kind(_ outcome: DeviceTransport.Outcome) -> DeviceTransport.Failure.Kind? {
        if case .failed(let failure) = outcome { return failure.kind }
        return nil
    }

    /// Accepts one connection on `listener` and reads what arrives first (the request's head).
    private func receive(on listener: HeldPort) async -> (connection: Int32, request: String) {
        let descriptor = listener.descriptor
        return await withCheckedContinuation { continuation in
            DispatchQueue(label: "DeviceTransportTests.accept").async {
                let connection = accept(descriptor, nil, nil)
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = connection >= 0 ? recv(connection, &buffer, buffer.count, 0) : 0
                continuation.resume(returning: (connection, String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)))
            }
        }
    }
}
