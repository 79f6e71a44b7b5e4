/// The one error envelope every host and service answers with, and the SDK reads:
/// `{"error": {"code": "...", "message": "...", "field": "..."}}`.
///
/// The code is stable and meant for machines (``ErrorCode``, which keeps a code it does not know);
/// the message is for people; the field, when present, names the part of the request that is wrong
/// (`amount`, `query.page`, `header.Authorization`).
///
/// ```swift
/// let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: body)
/// if envelope.error.code == .terminalBusy { /* finish the other transaction first */ }
/// ```
public struct ErrorEnvelope: Codable, Sendable, Equatable {
    /// What the envelope carries.
    public struct Body: Codable, Sendable, Equatable {
        public var code: ErrorCode
        /// Always sent by the sandbox's services; optional so that an answer without one still reads.
        public var message: String?
        public var field: String?

        public init(code: ErrorCode, message: String?, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }
    }

    public var error: Body

    public init(_ error: Body) {
        self.error = error
    }

    public init(code: ErrorCode, message: String?, field: String? = nil) {
        self.error = Body(code: code, message: message, field: field)
    }
}
