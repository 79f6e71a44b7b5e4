/// The limits a request body or card payload is held to before it is decoded: no key twice in
/// one object, objects of at most ``maximumMembers`` members, nesting at most ``maximumDepth``
/// deep. Checked in one pass over the document, so its cost grows with the body's size and
/// nothing else.
///
/// Duplicate keys are refused rather than read: parsers disagree on them (first wins in some,
/// last in most), and two readers of one body must never see two different requests. Keys are
/// compared as strings, escapes resolved (`"a"` and `"\u0061"` are the same key).
///
/// ```swift
/// try JSONShape.check(Array(#"{"amount":1,"amount":2}"#.utf8))  // Violation: amount appears twice
/// let sale = try FastJSONDecoder.decode(SaleRequest.self, from: try JSONShape.check(body))  // parsed once
/// ```
public enum JSONShape {
    /// The deepest nesting of objects and arrays taken.
    public static let maximumDepth = Tape.maximumDepth
    /// The most members one object may have.
    public static let maximumMembers = 1_000

    /// Why a document was refused: the message, and the JSON path of the object at fault
    /// (`items[2]`), nil at the top level.
    public struct Violation: Error, Sendable, Equatable {
        public let message: String
        public let field: String?
    }

    /// A document that passed ``check(_:)``, parsed: ``FastJSONDecoder/decode(_:from:)``
    /// decodes it without parsing it again.
    public struct Checked {
        let bytes: [UInt8]
        /// nil: not JSON (the decoder reports it).
        let tape: Tape?
    }

    /// Checks `bytes`. A document that is not JSON passes: the decoder reports it.
    ///
    /// - Throws: ``Violation`` for a repeated key, too many members, or nesting too deep.
    @discardableResult
    public static func check(_ bytes: [UInt8]) throws(Violation) -> Checked {
        switch Tape.parse(bytes, anyKeys: true) {
        case .refused: return Checked(bytes: bytes, tape: nil)
        case .tooDeep: throw Violation(message: "The body nests objects and arrays deeper than \(maximumDepth) levels.", field: nil)
        case .parsed(let tape):
            try check(tape, node: 0, path: "")
            return Checked(bytes: bytes, tape: tape)
        }
    }

    private static func check(_ tape: Tape, node index: Int, path: String) throws(Violation) {
        let node = tape.nodes[index]
        switch node.kind {
        case .object:
            var keys: [String] = []
            var seen: Set<String> = []
            var position = index + 1
            while position < Int(node.next) {
                let key = tape.string(tape.nodes[position]) ?? ""
                if keys.count < 16 {
                    if keys.contains(key) { throw duplicate(key, path) }
                } else {
                    if seen.isEmpty { seen = Set(keys) }
                    guard seen.insert(key).inserted else { throw duplicate(key, path) }
                }
                keys.append(key)
                guard keys.count <= maximumMembers else {
                    throw Violation(
                        message: "An object of the body has more than \(maximumMembers) members.", field: path.isEmpty ? nil : path)
                }
                try check(tape, node: position + 1, path: path.isEmpty ? key : path + "." + key)
                position = Int(tape.nodes[position + 1].next)
            }
        case .array:
            var position = index + 1
            var item = 0
            while position < Int(node.next) {
                try check(tape, node: position, path: path + "[\(item)]")
                position = Int(tape.nodes[position].next)
                item += 1
            }
        default:
            return
        }
    }

    private static func duplicate(_ key: String, _ path: String) -> Violation {
        let field = path.isEmpty ? key : path + "." + key
        return Violation(message: "The key \(field) appears more than once in its object.", field: field)
    }
}
