/// The answer to `GET` and `POST /_sandbox/clock`: the host's clock, which `POST` moves ahead of
/// real time, and by how much.
///
/// `tapsim` reads `now` to judge sessions on the host's clock; an answer without `skewSeconds`
/// still decodes.
///
/// ```json
/// {"now":"2026-12-01T10:00:00Z","skewSeconds":600}
/// ```
public struct SandboxClockState: Codable, Sendable, Equatable {
    /// The sandbox clock, in whole seconds UTC.
    public let now: String
    /// How far the sandbox clock is ahead of real time.
    public let skewSeconds: Double?

    public init(now: String, skewSeconds: Double?) {
        self.now = now
        self.skewSeconds = skewSeconds
    }
}
