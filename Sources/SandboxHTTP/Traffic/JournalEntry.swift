import Foundation
import SandboxWire

/// One answered request as the journal keeps it (``RequestJournal``).
///
/// ```json
/// {"requestId": "req_mb2x…_1f", "time": "2026-12-01T10:00:00.123Z", "surface": "terminal",
///  "method": "POST", "path": "/terminal/v1/transactions/sale", "status": 201, "milliseconds": 3.2,
///  "subject": "EU-T0101", "errorCode": null, "fault": null, "dropped": false}
/// ```
public struct JournalEntry: Sendable, Encodable, Equatable {
    public let requestId: String
    /// When the answer was sent, on the service's clock (milliseconds since 1970).
    public let timeMilliseconds: Int64
    /// The same, ISO 8601 (written only when the entry is read: recording stays cheap).
    public var time: String { WireTime.string(milliseconds: timeMilliseconds) }
    /// The part of the API the path belongs to (`terminal`, `merchant`, `backoffice` …).
    public let surface: String
    public let method: String
    public let path: String
    public let status: Int
    /// From the request's arrival to its answer.
    public let milliseconds: Double
    /// The terminal or merchant the request acted for, when the service said.
    public let subject: String?
    /// The error envelope's code, on a refusal.
    public let errorCode: String?
    /// The id of the fault that changed this request, if one did.
    public let fault: String?
    /// Whether the connection was closed without the answer (a `drop` fault).
    public let dropped: Bool
    /// The bodies, masked, only while the journal captures them (``RequestJournal/capturesBodies``).
    public let requestBody: String?
    public let responseBody: String?

    /// The entry with these bodies (the journal keeps entries without them, and masks them when read).
    func with(requestBody: String?, responseBody: String?) -> JournalEntry {
        JournalEntry(
            requestId: requestId, timeMilliseconds: timeMilliseconds, surface: surface, method: method, path: path, status: status,
            milliseconds: milliseconds, subject: subject, errorCode: errorCode, fault: fault, dropped: dropped,
            requestBody: requestBody, responseBody: responseBody)
    }

    public init(
        requestId: String, timeMilliseconds: Int64, surface: String, method: String, path: String, status: Int, milliseconds: Double,
        subject: String?, errorCode: String?, fault: String?, dropped: Bool, requestBody: String?, responseBody: String?
    ) {
        self.requestId = requestId
        self.timeMilliseconds = timeMilliseconds
        self.surface = surface
        self.method = method
        self.path = path
        self.status = status
        self.milliseconds = milliseconds
        self.subject = subject
        self.errorCode = errorCode
        self.fault = fault
        self.dropped = dropped
        self.requestBody = requestBody
        self.responseBody = responseBody
    }

    enum CodingKeys: String, CodingKey {
        case requestId, time, surface, method, path, status, milliseconds, subject, errorCode, fault, dropped, requestBody, responseBody
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(requestId, forKey: .requestId)
        try c.encode(time, forKey: .time)
        try c.encode(surface, forKey: .surface)
        try c.encode(method, forKey: .method)
        try c.encode(path, forKey: .path)
        try c.encode(status, forKey: .status)
        try c.encode(milliseconds, forKey: .milliseconds)
        try c.encode(subject, forKey: .subject)
        try c.encode(errorCode, forKey: .errorCode)
        try c.encode(fault, forKey: .fault)
        try c.encode(dropped, forKey: .dropped)
        try c.encodeIfPresent(requestBody, forKey: .requestBody)
        try c.encodeIfPresent(responseBody, forKey: .responseBody)
    }
}
