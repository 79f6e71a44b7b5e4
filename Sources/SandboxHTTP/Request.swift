import FastJSON
import SandboxWire
import Foundation

/// One HTTP request as a handler sees it: method, decoded path, query, headers and the whole body.
///
/// A value whose fields live in one shared box, copied when a copy is changed: a request passes
/// through half a dozen layers (site gate, request gate, journal, router, handler), and a copy of
/// eight separate strings and collections at each took some forty retains and as many releases.
public struct Request: Sendable {
    private final class Fields: @unchecked Sendable {
        // Changed only through `fields` below, when this box is the request's alone.
        var method: String
        var path: String
        var query: [String: String]
        var headers: [String: String]
        var body: [UInt8]
        var parameters: [String: String]
        var id: String
        var clientAddress: String?

        init(
            method: String, path: String, query: [String: String], headers: [String: String], body: [UInt8],
            parameters: [String: String], id: String, clientAddress: String?
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
            self.parameters = parameters
            self.id = id
            self.clientAddress = clientAddress
        }

        func copy() -> Fields {
            Fields(
                method: method, path: path, query: query, headers: headers, body: body, parameters: parameters, id: id,
                clientAddress: clientAddress)
        }
    }

    private var box: Fields

    /// The box, made this request's own first if another copy shares it.
    private var fields: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = box.copy() }
            return box
        }
    }

    public var method: String {
        get { box.method }
        _modify { yield &fields.method }
    }
    /// The path without the query, percent-decoded by the server (`/v1/terminals/T1`).
    public var path: String {
        get { box.path }
        _modify { yield &fields.path }
    }
    public var query: [String: String] {
        get { box.query }
        _modify { yield &fields.query }
    }
    /// Header names lower-cased; a repeated header keeps its values joined by ", ".
    public var headers: [String: String] {
        get { box.headers }
        _modify { yield &fields.headers }
    }
    public var body: [UInt8] {
        get { box.body }
        _modify { yield &fields.body }
    }
    /// Values of `{name}` segments of the matched route.
    public var parameters: [String: String] {
        get { box.parameters }
        _modify { yield &fields.parameters }
    }
    /// The id echoed in `X-Request-Id` and written to the access log.
    public var id: String {
        get { box.id }
        _modify { yield &fields.id }
    }
    /// The peer's IP address as text (`127.0.0.1`), which rules that count a client's failures key
    /// on; nil for a request that came through no socket (in-process, unless a test sets one).
    public var clientAddress: String? {
        get { box.clientAddress }
        _modify { yield &fields.clientAddress }
    }

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], id: String = "test", clientAddress: String? = nil
    ) {
        box = Fields(
            method: method, path: path, query: query, headers: headers, body: body, parameters: [:], id: id,
            clientAddress: clientAddress)
    }

    /// A header by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// A path parameter that the route guarantees exists.
    public func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// A query flag such as `?dryRun=true`: false when absent, else `true` or `false`.
    ///
    /// - Throws: 400 `invalid_request` naming `query.<name>` for any other value.
    public func flag(_ name: String) throws(HTTPError) -> Bool {
        switch query[name] {
        case nil, "false": return false
        case "true": return true
        default: throw HTTPError(status: 400, code: .invalidRequest, message: "\(name) must be true or false.", field: "query.\(name)")
        }
    }

    /// Decodes a JSON body, turning every decoding failure into a 400 that names the field. The
    /// body is held to ``JSONShape`` first: a key twice in one object, an object of more than
    /// 1,000 members or nesting deeper than 64 levels is refused, whatever the type reads.
    ///
    /// - Throws: `HTTPError` with code `invalid_json` (not JSON, or wrong shape) or
    ///   `unsupported_media_type` when the client declared another content type.
    public func decode<T: Decodable>(_ type: T.Type) throws(HTTPError) -> T {
        if let contentType = header("content-type"), !contentType.lowercased().hasPrefix("application/json") {
            throw .unsupportedMediaType
        }
        let checked: JSONShape.Checked
        do throws(JSONShape.Violation) {
            checked = try JSONShape.check(body)
        } catch {
            throw .badRequest(error.message, code: .invalidJson, field: error.field)
        }
        do {
            return try FastJSONDecoder.decode(T.self, from: checked)
        } catch let error as DecodingError {
            // Foundation reports a number it cannot hold (1e30, 2^63, 12.5 for an integer) as corrupt
            // data at the root; the body is valid JSON, so name the field that holds such a number.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let parsed = try? JSONSerialization.jsonObject(with: Data(body)),
                let field = Self.unrepresentableNumber(in: parsed)
            {
                throw .badRequest(
                    "The field \(field) must be a whole number within 64 bits.", code: .invalidJson, field: field)
            }
            throw HTTPError.invalidJSON(error)
        } catch {
            throw .badRequest("The request body is not valid JSON.", code: .invalidJson)
        }
    }
}

extension Request {
    /// The path of the first number that is not a whole number within Int64 (`amount`, `items[2].tip`).
    static func unrepresentableNumber(in value: Any, path: String = "") -> String? {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if let found = unrepresentableNumber(in: object[key]!, path: path.isEmpty ? key : path + "." + key) {
                    return found
                }
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = unrepresentableNumber(in: element, path: path + "[\(index)]") { return found }
            }
        case let number as NSNumber:  // a boolean reads as 0 or 1, a whole number: never flagged
            let double = number.doubleValue
            if double != double.rounded() || abs(double) >= 9.223_372_036_854_775e18 { return path.isEmpty ? nil : path }
        default:
            break
        }
        return nil
    }
}

extension HTTPError {
    /// A 400 naming the JSON path that failed to decode (`items[2].amount`).
    public static func invalidJSON(_ error: DecodingError) -> HTTPError {
        func path(_ codingPath: [any CodingKey]) -> String? {
            guard !codingPath.isEmpty else { return nil }
            return codingPath.reduce(into: "") { text, key in
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .badRequest("The field \(field ?? key.stringValue) is missing.", code: .invalidJson, field: field)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let field = path(context.codingPath)
            return .badRequest("The field \(field ?? "(body)") has the wrong type.", code: .invalidJson, field: field)
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            return .badRequest(
                field.map { "The field \($0) has an invalid value." } ?? "The request body is not valid JSON.",
                code: .invalidJson, field: field)
        @unknown default:
            return .badRequest("The request body is not valid JSON.", code: .invalidJson)
        }
    }
}
