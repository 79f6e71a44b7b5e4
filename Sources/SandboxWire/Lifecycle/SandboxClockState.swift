/// The answer to `GET` and `POST /_sandbox/clock`: the host's clock, which `POST` moves ahead of
/// real time, and by how much.
///
/// `tapsim` reads `nowUnix` (else `now`) to judge sessions on the host's clock, as the host does, to
/// the millisecond; an answer without `skewSeconds` or `nowUnix` still decodes.
///
/// ```json
/// {"now":"2026-12-01T10:00:00Z","nowUnix":1796119200.125,"skewSeconds":600}
/// ```
public struct SandboxClockState: Codable, Sendable, Equatable {
    /// The sandbox clock, in whole seconds UTC.
    public let now: String
    /// The sandbox clock in seconds since 1970, to the millisecond.
    public let nowUnix: Double?
    /// How far the sandbox clock is ahead of real time.
    public let skewSeconds: Double?

    public init(now: String, nowUnix: Double? = nil, skewSeconds: Double?) {
        self.now = now
        self.nowUnix = nowUnix
        self.skewSeconds = skewSeconds
    }
}
