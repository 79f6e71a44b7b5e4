import Dispatch
import Synchronization

/// An HTTP client on libcurl for server-to-server calls: webhook deliveries, wallet notifications.
///
/// One client is meant to be shared. The synchronous ``send(_:)`` blocks the calling
/// thread and is safe from many threads at once; the `async` variant runs the same call on a
/// private dispatch queue so the cooperative pool is never blocked. Each request borrows a curl
/// handle from an idle pool and returns it afterwards, so keep-alive connections to a receiver
/// are reused. Redirects are not followed and only `http`/`https` URLs are accepted.
///
/// ```swift
/// let client = HTTPClient(configuration: .init(totalTimeout: .seconds(10)))
/// let response = try await client.send(HTTPClientRequest(
///     method: .post,
///     url: "http://127.0.0.1:9000/webhooks",
///     headers: ["Content-Type": "application/json"],
///     body: Array(payload.utf8)
/// ))
/// print(response.status, response.totalTime)
/// ```
public final class HTTPClient: Sendable {
    /// The limits and identity every request uses.
    public let configuration: Configuration

    private let idleHandles = Mutex<[EasyHandle]>([])

    /// Creates a client with no connections yet.
    ///
    /// - Parameter configuration: Timeouts, body size cap, user agent and pool size.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Sends a request and waits for the whole response, blocking the calling thread.
    ///
    /// Any status code is a response; only failures to get one throw.
    ///
    /// ```swift
    /// let response = try client.send(HTTPClientRequest(url: "http://127.0.0.1:9000/health"))
    /// ```
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The server's final response.
    /// - Throws: ``HTTPClientError``: `invalidURL`, `unsupportedScheme`, `invalidRequest`,
    ///   `hostNotFound`, `connectionFailed`, `timedOut`, `responseTooLarge`, `tls` or `transport`.
    public func send(_ request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse {
        try perform(request, cancellation: nil)
    }

    /// Sends a request only if its host resolves to addresses `policy` allows, and connects to
    /// the first of those checked addresses, never to what a second lookup might answer.
    ///
    /// Redirects are not followed (a 3xx is the answer), and no proxy is used, so the checked
    /// address is the one the request reaches.
    ///
    /// ```swift
    /// let response = try client.send(request, checking: PublicAddress())
    /// ```
    ///
    /// - Throws: ``HTTPClientError/forbiddenAddress`` (nothing was sent) with the reason, or any
    ///   error of ``send(_:)``.
    public func send(_ request: HTTPClientRequest, checking policy: PublicAddress) throws(HTTPClientError) -> HTTPClientResponse {
        try URLValidation.validate(request.url)
        let destination: PublicAddress.Destination
        do {
            destination = try policy.check(request.url)
        } catch {
            throw HTTPClientError.forbiddenAddress.with(message: error.reason)
        }
        return try perform(request, cancellation: nil, pinnedTo: destination.addresses.first.map { ($0, destination.port) })
    }

    /// Sends a request without blocking the caller's thread.
    ///
    /// Cancelling the calling task aborts the transfer within about a second and throws
    /// ``HTTPClientError/cancelled``.
    ///
    /// ```swift
    /// let response = try await client.send(request)
    /// ```
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The server's final response.
    /// - Throws: ``HTTPClientError``, as the synchronous variant, plus `cancelled`.
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let cancellation = CancellationFlag()
        let result: Result<HTTPClientResponse, HTTPClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A fresh serial queue targets the overcommitting root queue, so every blocking call
                // gets a thread at once; concurrent queues are capped near the core count and a
                // burst of slow receivers would queue behind each other.
                DispatchQueue(label: "SandboxHTTPClient.send").async {
                    continuation.resume(returning: Result { () throws(HTTPClientError) in
                        try self.perform(request, cancellation: cancellation)
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    private func perform(
        _ request: HTTPClientRequest, cancellation: CancellationFlag?, pinnedTo pin: (IPAddress, Int)? = nil
    ) throws(HTTPClientError) -> HTTPClientResponse {
        try URLValidation.validate(request.url)
        let handle = try checkOutHandle()
        // Not `defer`: region checking treats a handle captured by a defer block as shared.
        let result = Result { () throws(HTTPClientError) in
            try handle.perform(request, configuration: configuration, cancellation: cancellation, pinnedTo: pin)
        }
        checkIn(handle)
        return try result.get()
    }

    private func checkOutHandle() throws(HTTPClientError) -> sending EasyHandle {
        // Most recently used first: its connection is the likeliest to still be open.
        if let idle = idleHandles.withLock({ $0.popLast() }) {
            return idle
        }
        return try EasyHandle()
    }

    private func checkIn(_ handle: consuming EasyHandle) {
        let limit = configuration.maxIdleHandles
        let handoff = Handoff(handle: handle)
        idleHandles.withLock { handles in
            if handles.count < limit {
                handles.append(handoff.handle)
            }
        }
    }
}

/// Carries a handle into the pool's lock.
///
/// Region checking cannot yet see that a value captured by the `withLock` closure is given up
/// by its only owner; ``HTTPClient/perform(_:cancellation:)`` drops its reference right after
/// check-in, so the handle is never used by two threads at once.
private struct Handoff: @unchecked Sendable {
    let handle: EasyHandle
}
