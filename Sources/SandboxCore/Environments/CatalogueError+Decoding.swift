import Foundation

extension CatalogueError {
    /// Turns a decoding failure into the `file: path: reason` line.
    ///
    /// Coding paths become the JSON's own spelling (`regions[3].currency`); Swift type
    /// names become JSON words ("expected a boolean"); a document that does not parse is
    /// described by `JSONSerialization`, which, unlike `JSONDecoder`, says where.
    init(_ error: DecodingError, file: String, data: Data) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(code: .missing, file: file, path: Self.render(context.codingPath + [key]), reason: "missing")
        case .valueNotFound(let type, let context):
            self.init(
                code: .wrongType, file: file, path: Self.render(context.codingPath),
                reason: "expected \(Self.jsonNoun(type)), found null")
        case .typeMismatch(let type, let context):
            self.init(
                code: .wrongType, file: file, path: Self.render(context.codingPath),
                reason: "expected \(Self.jsonNoun(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(code: .notJSON, file: file, path: "(root)", reason: "not valid JSON: \(Self.syntaxProblem(in: data))")
        case .dataCorrupted(let context):
            self.init(code: .invalid, file: file, path: Self.render(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self.init(code: .invalid, file: file, path: "(root)", reason: "\(error)")
        }
    }

    /// `regions`, `Index 3`, `currency` → `regions[3].currency`; nothing → `(root)`.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "(root)" : text
    }

    /// The JSON word for what a Swift type expects.
    static func jsonNoun(_ type: Any.Type) -> String {
        if type == Bool.self { return "a boolean" }
        if type == String.self { return "a string" }
        if type is any Numeric.Type { return "a number" }
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "a list" }
        if name.hasPrefix("Dictionary") { return "an object" }
        return name
    }

    /// Where and why `data` fails to parse, e.g. "invalid value at line 3, column 5".
    static func syntaxProblem(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            return Self.readable(detail, in: data)
        }
        // It parses, yet JSONDecoder refused it: a number too large for any Swift type.
        return "a number is out of range"
    }

    /// "Invalid value around character 36." → "invalid value at line 1, column 37".
    private static func readable(_ detail: String, in data: Data) -> String {
        var text = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        text = text.replacingOccurrences(of: " during JSON parse", with: "")
        if let range = text.range(of: " around character "), let offset = Int(text[range.upperBound...]) {
            let before = data.prefix(offset)
            let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - before.startIndex + 1 } ?? 0) + 1
            text = "\(text[..<range.lowerBound]) at line \(line), column \(column)"
        }
        guard let first = text.first else { return "unreadable" }
        return first.lowercased() + text.dropFirst()
    }
}
