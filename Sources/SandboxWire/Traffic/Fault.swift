import Foundation

/// A fault a tester sets on a service to try an app's resilience (as WireMock's faults and
/// Toxiproxy's toxics): which requests it takes, for how long, and what it does to them.
///
/// ```json
/// {"match": {"method": "POST", "path": "/terminal/v1/transactions/sale"},
///  "count": 1, "action": "drop"}
/// {"match": {"surface": "terminal"}, "share": 0.5, "action": "status", "status": 503}
/// {"match": {"path": "/terminal/v1/*"}, "seconds": 60, "action": "delay", "delayMilliseconds": 3000}
/// ```
///
/// Exactly one of `count` (the next N requests that match), `share` (that share of them, spread
/// evenly: 0.5 takes every second one) and `seconds` (every one, for that long on the service's
/// clock). The action: `status` answers that status (400–599) with the error envelope, code
/// `code` or `injected_fault`, without doing the work; `delay` does the work and answers after
/// `delayMilliseconds` (up to 60,000); `drop` does the work (a sale is stored) and closes the
/// connection without the answer: the "outcome unknown" case.
///
/// One shape for both sides: the host decodes the body and lists its faults with it, and an app's
/// tests set one with it (`TestSandbox.addFault(_:region:)`). A body's `id`, `applied` and
/// `endsAtMilliseconds` are ignored: the host sets them.
public struct Fault: Sendable, Codable, Equatable {
    public struct Match: Sendable, Codable, Equatable {
        public var method: String?
        /// A path, or a prefix ending in `*`.
        public var path: String?
        /// `terminal`, `merchant`, `backoffice`, `provider` …
        public var surface: String?

        public init(method: String? = nil, path: String? = nil, surface: String? = nil) {
            self.method = method
            self.path = path
            self.surface = surface
        }
    }

    public enum Action: String, Sendable, Codable {
        case status, delay, drop
    }

    public var id: String
    public var match: Match
    public var count: Int?
    public var share: Double?
    public var seconds: Double?
    public var action: Action
    public var status: Int?
    public var code: String?
    public var delayMilliseconds: Int?
    /// How many requests it changed so far.
    public var applied: Int
    /// When a `seconds` fault ends (milliseconds since 1970 on the service's clock).
    public var endsAtMilliseconds: Int64?

    public init(
        id: String = "", match: Match = Match(), count: Int? = nil, share: Double? = nil, seconds: Double? = nil, action: Action,
        status: Int? = nil, code: String? = nil, delayMilliseconds: Int? = nil
    ) {
        self.id = id
        self.match = match
        self.count = count
        self.share = share
        self.seconds = seconds
        self.action = action
        self.status = status
        self.code = code
        self.delayMilliseconds = delayMilliseconds
        applied = 0
    }

    /// The next `count` matching requests answer `status` with the error `code` (`injected_fault` when nil).
    public static func status(_ status: Int, code: String? = nil, _ match: Match, count: Int = 1) -> Fault {
        Fault(match: match, count: count, action: .status, status: status, code: code)
    }

    /// The next `count` matching requests are answered `milliseconds` late.
    public static func delay(milliseconds: Int, _ match: Match, count: Int = 1) -> Fault {
        Fault(match: match, count: count, action: .delay, delayMilliseconds: milliseconds)
    }

    /// The next `count` matching requests are received and get no answer (the connection closes).
    public static func drop(_ match: Match, count: Int = 1) -> Fault {
        Fault(match: match, count: count, action: .drop)
    }

    enum CodingKeys: String, CodingKey {
        case id, match, count, share, seconds, action, status, code, delayMilliseconds, applied, endsAtMilliseconds
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: "", match: try c.decodeIfPresent(Match.self, forKey: .match) ?? Match(), count: try c.decodeIfPresent(Int.self, forKey: .count),
            share: try c.decodeIfPresent(Double.self, forKey: .share), seconds: try c.decodeIfPresent(Double.self, forKey: .seconds),
            action: try c.decode(Action.self, forKey: .action), status: try c.decodeIfPresent(Int.self, forKey: .status),
            code: try c.decodeIfPresent(String.self, forKey: .code), delayMilliseconds: try c.decodeIfPresent(Int.self, forKey: .delayMilliseconds))
    }

    /// Why this fault cannot be set, naming the field; nil when it can.
    public var problem: (message: String, field: String)? {
        let triggers = [count != nil, share != nil, seconds != nil].filter { $0 }.count
        guard triggers == 1 else { return ("Give exactly one of count, share and seconds.", "count") }
        if let count, !(1...100_000).contains(count) { return ("count must be from 1 to 100000.", "count") }
        if let share, !(share > 0 && share <= 1) { return ("share must be above 0 and at most 1.", "share") }
        if let seconds, !(seconds > 0 && seconds <= 86_400) { return ("seconds must be above 0 and at most 86400.", "seconds") }
        if let method = match.method, !(1...16).contains(method.count) || !method.allSatisfy({ $0.isASCII && $0.isLetter }) {
            return ("match.method must be an HTTP method such as POST.", "match.method")
        }
        if let path = match.path, !path.hasPrefix("/") || path.utf8.count > 512 { return ("match.path must start with / (at most 512 bytes).", "match.path") }
        switch action {
        case .status:
            guard let status, (400...599).contains(status) else { return ("A status fault needs status from 400 to 599.", "status") }
            if let code, !(1...64).contains(code.utf8.count) || !code.utf8.allSatisfy({ (0x61...0x7A).contains($0) || $0 == 0x5F || (0x30...0x39).contains($0) }) {
                return ("code must be 1 to 64 lower-case letters, digits or '_'.", "code")
            }
            if delayMilliseconds != nil { return ("delayMilliseconds belongs to a delay fault.", "delayMilliseconds") }
        case .delay:
            guard let delay = delayMilliseconds, (1...60_000).contains(delay) else {
                return ("A delay fault needs delayMilliseconds from 1 to 60000.", "delayMilliseconds")
            }
            if status != nil || code != nil { return ("status and code belong to a status fault.", "status") }
        case .drop:
            if status != nil || code != nil || delayMilliseconds != nil {
                return ("A drop fault takes no status, code or delayMilliseconds.", "action")
            }
        }
        return nil
    }
}
