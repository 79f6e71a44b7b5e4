extension HTTPClient {
    /// Limits and identity shared by every request a client sends.
    ///
    /// The defaults suit webhook deliveries: a receiver that does not accept within a few
    /// seconds, or answers with megabytes, is broken, and waiting on it only delays retries.
    ///
    /// ```swift
    /// var configuration = HTTPClient.Configuration()
    /// configuration.totalTimeout = .seconds(10)
    /// let client = HTTPClient(configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Equatable {
        /// How long to wait for the TCP (and TLS) connection. Clamped to at least 1 ms.
        public var connectTimeout: Duration
        /// How long a whole request may take, connect included. Clamped to at least 1 ms.
        public var totalTimeout: Duration
        /// The largest response body accepted; a larger one aborts the transfer with
        /// ``HTTPClientError/responseTooLarge``.
        public var maxResponseBodySize: Int
        /// The `User-Agent` sent unless a request sets its own.
        public var userAgent: String
        /// How many idle curl handles, each with its keep-alive connections, the client keeps
        /// for reuse. Handles beyond this are closed when their request ends.
        public var maxIdleHandles: Int
        /// Whether `http_proxy`, `https_proxy` and `no_proxy` from the environment apply.
        /// Off by default: deliveries go straight to the receiver, as the sandbox logs say.
        public var usesEnvironmentProxy: Bool

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - connectTimeout: Time allowed to connect; 5 s by default.
        ///   - totalTimeout: Time allowed for the whole request; 30 s by default.
        ///   - maxResponseBodySize: Largest accepted body in bytes; 1 MiB by default.
        ///   - userAgent: The default `User-Agent`.
        ///   - maxIdleHandles: Idle handles kept for connection reuse; 8 by default.
        ///   - usesEnvironmentProxy: Whether proxy environment variables apply.
        public init(
            connectTimeout: Duration = .seconds(5),
            totalTimeout: Duration = .seconds(30),
            maxResponseBodySize: Int = 1 << 20,
            userAgent: String = "TapSandbox-HTTPClient/1.0",
            maxIdleHandles: Int = 8,
            usesEnvironmentProxy: Bool = false
        ) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maxResponseBodySize = maxResponseBodySize
            self.userAgent = userAgent
            self.maxIdleHandles = maxIdleHandles
            self.usesEnvironmentProxy = usesEnvironmentProxy
        }
    }
}

extension Duration {
    /// Whole milliseconds, at least 1: libcurl reads 0 as "no timeout".
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds > 0 ? Int.max : 1 }
        let total = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if total.overflow { return Int.max }
        return Int(max(1, total.partialValue))
    }
}
