/// The answer to an environment host's `GET /healthz`: 200 when its database reads, 503 when not.
///
/// The SDK's `initialize` checks that the host is the environment's region and remembers the
/// flavour it runs; every field but `status` may be absent (another service's health says less).
///
/// ```json
/// {"database":"ok","flavour":"sandbox","region":"EU","status":"ok","time":"2026-12-01T10:00:00Z"}
/// ```
public struct HostHealth: Codable, Sendable, Equatable {
    /// `ok`, or `degraded` when the database does not read.
    public let status: String?
    public let region: String?
    public let flavour: String?
    /// `ok` or `unavailable`.
    public let database: String?
    /// The sandbox clock.
    public let time: String?

    public init(status: String?, region: String?, flavour: String?, database: String?, time: String?) {
        self.status = status
        self.region = region
        self.flavour = flavour
        self.database = database
        self.time = time
    }
}
