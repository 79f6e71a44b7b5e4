import Foundation

/// A JSON document whose object keys keep the order they were written in, so `--json` output
/// starts with `command` and reads the same way every time.
///
/// ```swift
/// let value: JSONValue = ["command": "pay", "transaction": ["status": "CLEARED", "amount": 1250]]
/// print(value.text)   // {"command":"pay","transaction":{"status":"CLEARED","amount":1250}}
/// ```
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }

    /// The compact text of the value, on one line.
    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
                output += String(Int(value))
            } else if value.isFinite {
                output += String(value)
            } else {
                output += "null"
            }
        case .string(let text): Self.quote(text, into: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let pairs):
            output += "{"
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { output += "," }
                Self.quote(key, into: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                output += String(format: "\\u%04x", control.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
    init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    init(_ text: String?) { self = text.map(JSONValue.string) ?? .null }
    init(_ value: Int?) { self = value.map(JSONValue.int) ?? .null }
    init(_ value: Double?) { self = value.map(JSONValue.double) ?? .null }
    init(_ value: Bool?) { self = value.map(JSONValue.bool) ?? .null }

    /// Any `Encodable` model, through `JSONEncoder` (object keys sorted: the model's own order is lost).
    init(encoding value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value), let parsed = try? JSONValue(parsing: data) else {
            self = .string(String(describing: value))
            return
        }
        self = parsed
    }

    /// Parses JSON text (keys sorted, since Foundation's parser does not keep their order).
    init(parsing data: Data) throws {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        self = JSONValue(foundation: object)
    }

    init(foundation object: Any) {
        switch object {
        case is NSNull: self = .null
        case let number as NSNumber:
            // A JSON true/false arrives as an NSNumber whose type is "c" (char), on Linux and Apple alike.
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .double(number.doubleValue)
            default: self = .int(number.intValue)
            }
        case let text as String: self = .string(text)
        case let items as [Any]: self = .array(items.map(JSONValue.init(foundation:)))
        case let dictionary as [String: Any]:
            self = .object(dictionary.keys.sorted().map { ($0, JSONValue(foundation: dictionary[$0]!)) })
        default: self = .string("\(object)")
        }
    }
}

extension JSONValue {
    /// The value at a dotted path (`transaction.transactionId`; a number picks an array item,
    /// `history.items.0.transactionId`), or nil when there is none.
    func value(at path: String) -> JSONValue? {
        var current = self
        for key in path.split(separator: ".").map(String.init) {
            switch current {
            case .object(let pairs):
                guard let found = pairs.first(where: { $0.0 == key }) else { return nil }
                current = found.1
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The keys of an object, for saying which fields there are.
    var keys: [String] {
        guard case .object(let pairs) = self else { return [] }
        return pairs.map(\.0)
    }

    /// How `--field` prints a value: a string as it is, null as nothing, anything else as JSON.
    var plainText: String {
        switch self {
        case .string(let text): text
        case .null: ""
        default: text
        }
    }
}
