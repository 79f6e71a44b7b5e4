import Foundation

/// Where and how a server listens, and the limits it holds every client to.
public struct ServerConfiguration: Sendable {
    /// The IPv4 address to bind: 127.0.0.1 unless told otherwise (docker-compose says 0.0.0.0).
    public var host: String
    /// 0 lets the system choose a free port (tests); `Server.port` tells which.
    public var port: UInt16
    /// A larger request body is refused with 413 and never buffered.
    public var maxBodyBytes: Int
    /// Memory for one connection's request line, headers and read buffer: larger headers get 431.
    public var maxHeaderBytes: Int
    /// An idle or stalled connection is closed after this many seconds; a keep-alive connection
    /// must also send its next request head whole within this of its previous answer.
    public var connectionTimeoutSeconds: Int
    /// A new connection must send its whole request head (line and headers) within this many
    /// seconds, however steadily it trickles bytes: the idle timeout alone restarts on each byte.
    public var requestHeadSeconds: Int
    /// After `requestHeadSeconds` of grace, a body must have arrived at this average rate or its
    /// connection is closed, so a body cannot hold a connection by crawling either.
    public var minimumBodyBytesPerSecond: Int
    /// Connections over this many at once are refused at accept.
    public var connectionLimit: Int
    /// Connections from one client address over this many at once are refused at accept: below
    /// `connectionLimit`, so one address cannot take every connection from the others.
    public var perAddressConnectionLimit: Int
    /// Threads that poll the connections and run the handlers (a handler that answers later,
    /// such as a payment waiting for its commit, holds none of them meanwhile).
    public var pollingThreads: Int
    /// On stop, requests in flight get this long to finish before connections are closed.
    public var drainSeconds: Double
    /// The key sandbox control needs (``ControlGate``); `nil` leaves it open, as it is for a
    /// service that listens on loopback only. The commands give every service a key when `host`
    /// is not loopback.
    public var controlKey: String?
    /// Names besides loopback and IP addresses that clients reach this service by, accepted in
    /// `Host` (``SiteGate``): a compose service's name, the host of a public URL. The bind address
    /// when it is a name, and the names in `SANDBOX_ALLOWED_HOSTS` (comma-separated), count too.
    public var allowedHosts: [String]

    /// Proxies (a load balancer) whose `X-Forwarded-For` names the client (``ForwardedFor``):
    /// the throttles then count each client, not the proxy. Empty: the header is ignored.
    public var trustedProxies: [String] = []

    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, maxBodyBytes: Int = 1 << 20,
        maxHeaderBytes: Int = 16 * 1024, connectionTimeoutSeconds: Int = 30, connectionLimit: Int = 1000,
        drainSeconds: Double = 2, pollingThreads: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        requestHeadSeconds: Int = 10, minimumBodyBytesPerSecond: Int = 1024, perAddressConnectionLimit: Int = 250,
        controlKey: String? = nil, allowedHosts: [String] = []
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.requestHeadSeconds = requestHeadSeconds
        self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.drainSeconds = drainSeconds
        self.pollingThreads = pollingThreads
        self.controlKey = controlKey
        self.allowedHosts = allowedHosts
    }

    /// Every name ``SiteGate`` accepts in `Host` besides loopback and IP addresses: `allowedHosts`,
    /// `host` and `SANDBOX_ALLOWED_HOSTS`.
    public var admittedHostNames: [String] {
        let environment = ProcessInfo.processInfo.environment["SANDBOX_ALLOWED_HOSTS"] ?? ""
        return allowedHosts + [host] + environment.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
