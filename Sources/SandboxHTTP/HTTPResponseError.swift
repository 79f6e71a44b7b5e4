/// An error that knows the response it becomes, so the code that throws it (a module's rules)
/// need not build responses: the router turns any thrown one into the one envelope.
///
/// On the wire it is `{"error": {"code": "...", "message": "...", "field": "..."}}`, as for
/// ``HTTPError``, which is the HTTP module's own conformance:
///
/// ```swift
/// struct LedgerError: HTTPResponseError {
///     let status: Int, code: String, message: String, field: String?
///     static let closed = LedgerError(status: 409, code: "ledger_closed", message: "The ledger is closed.", field: nil)
/// }
/// router.post("/v1/entries") { _ in throw LedgerError.closed }   // 409 and its envelope
/// ```
public protocol HTTPResponseError: Error, Sendable {
    /// The HTTP status of the answer.
    var status: Int { get }
    /// The stable code, for machines.
    var code: String { get }
    /// The message, for people.
    var message: String { get }
    /// The part of the request that is wrong (`amount`, `query.page`, `header.Authorization`), if one is.
    var field: String? { get }
    /// Extra headers the answer needs (`Allow` on a 405); none by default.
    var headers: [(String, String)] { get }
}

extension HTTPResponseError {
    public var headers: [(String, String)] { [] }

    /// The envelope as a response.
    public var response: Response {
        var body: [String: String] = ["code": code, "message": message]
        if let field { body["field"] = field }
        var response = Response.json(["error": body], status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}
