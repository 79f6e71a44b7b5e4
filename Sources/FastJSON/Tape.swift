/// A JSON document parsed into a flat list of nodes, in document order: an object is followed by
/// its keys and values, an array by its items. Each node records where its subtree ends, so a
/// reader steps over a value without looking inside it. Scalars keep only their byte range.
///
/// The parser is strict (RFC 8259, UTF-8, no byte-order mark) and gives up, by returning `nil`,
/// on anything ``FastJSONDecoder`` leaves to Foundation: a key that is not plain ASCII without
/// escapes, a top level that is not an object or an array, nesting deeper than
/// ``maximumDepth``. Giving up never changes a result, it only takes the slower path.
struct Tape {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    struct Node {
        var kind: Kind
        /// Strings: has escapes. Numbers: has a fraction or an exponent.
        var flag: Bool
        /// Strings and numbers: the bytes (a string's without its quotes).
        var start: Int32
        var end: Int32
        /// The index after this node's subtree (after the last item of an object or an array).
        var next: Int32
    }

    static let maximumDepth = 64

    let bytes: [UInt8]
    private(set) var nodes: [Node]
    /// Every key is plain ASCII without escapes (always so unless parsed with `anyKeys`): the
    /// decoder's fast path compares keys byte by byte only then.
    let plainKeys: Bool

    init?(_ bytes: [UInt8]) {
        guard case .parsed(let tape) = Tape.parse(bytes, anyKeys: false) else { return nil }
        self = tape
    }

    /// What ``parse(_:anyKeys:)`` made of a document.
    enum Parsed {
        case parsed(Tape)
        /// Valid so far, but nested deeper than ``maximumDepth``.
        case tooDeep
        /// Not JSON, or not what the tape takes (a top level that is neither an object nor an
        /// array; with `anyKeys` false, a key with escapes or beyond ASCII).
        case refused
    }

    /// Parses `bytes`; `anyKeys`: keys may have escapes and non-ASCII characters (their node's
    /// `flag` says whether they have escapes), for a reader that compares them as strings.
    static func parse(_ bytes: [UInt8], anyKeys: Bool) -> Parsed {
        guard bytes.count < Int(Int32.max) else { return .refused }
        var nodes: [Node] = []
        nodes.reserveCapacity(32)
        var tooDeep = false
        var plainKeys = true
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var parser = Parser(bytes: buffer, anyKeys: anyKeys)
            defer { (tooDeep, plainKeys) = (parser.tooDeep, parser.plainKeys) }
            parser.skipSpace()
            guard parser.position < buffer.count, buffer[parser.position] == UInt8(ascii: "{") || buffer[parser.position] == UInt8(ascii: "[")
            else { return false }
            guard parser.value(into: &nodes, depth: 0) else { return false }
            parser.skipSpace()
            return parser.position == buffer.count
        }
        if tooDeep { return .tooDeep }
        return parsed ? .parsed(Tape(bytes: bytes, nodes: nodes, plainKeys: plainKeys)) : .refused
    }

    private init(bytes: [UInt8], nodes: [Node], plainKeys: Bool) {
        self.bytes = bytes
        self.nodes = nodes
        self.plainKeys = plainKeys
    }

    /// The bytes of a string or number node.
    func slice(_ node: Node) -> ArraySlice<UInt8> {
        bytes[Int(node.start)..<Int(node.end)]
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Keys may have escapes and non-ASCII characters.
    let anyKeys: Bool
    var position = 0
    /// Set when the document nests deeper than ``Tape/maximumDepth``.
    var tooDeep = false
    /// Cleared by a key with escapes or beyond ASCII (taken only with `anyKeys`).
    var plainKeys = true

    init(bytes: UnsafeBufferPointer<UInt8>, anyKeys: Bool) {
        self.bytes = bytes
        self.anyKeys = anyKeys
    }

    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func value(into nodes: inout [Tape.Node], depth: Int) -> Bool {
        guard let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(into: &nodes, depth: depth + 1)
        case UInt8(ascii: "["): return array(into: &nodes, depth: depth + 1)
        case UInt8(ascii: "\""): return string(into: &nodes, key: false)
        case UInt8(ascii: "t"): return literal("true", .true, into: &nodes)
        case UInt8(ascii: "f"): return literal("false", .false, into: &nodes)
        case UInt8(ascii: "n"): return literal("null", .null, into: &nodes)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number(into: &nodes)
        default: return false
        }
    }

    private mutating func object(into nodes: inout [Tape.Node], depth: Int) -> Bool {
        container(.object, closedBy: UInt8(ascii: "}"), into: &nodes, depth: depth) { parser, nodes in
            guard parser.current == UInt8(ascii: "\""), parser.string(into: &nodes, key: true) else { return false }
            parser.skipSpace()
            guard parser.current == UInt8(ascii: ":") else { return false }
            parser.position += 1
            parser.skipSpace()
            return parser.value(into: &nodes, depth: depth)
        }
    }

    private mutating func array(into nodes: inout [Tape.Node], depth: Int) -> Bool {
        container(.array, closedBy: UInt8(ascii: "]"), into: &nodes, depth: depth) { parser, nodes in
            parser.value(into: &nodes, depth: depth)
        }
    }

    /// An object or an array at its opening byte: `member` reads each member (a key and its value,
    /// or an item), separated by commas, up to `close`; the node then records where it ends.
    private mutating func container(
        _ kind: Tape.Kind, closedBy close: UInt8, into nodes: inout [Tape.Node], depth: Int,
        member: (inout Parser, inout [Tape.Node]) -> Bool
    ) -> Bool {
        guard depth <= Tape.maximumDepth else {
            tooDeep = true
            return false
        }
        let index = nodes.count
        nodes.append(Tape.Node(kind: kind, flag: false, start: 0, end: 0, next: 0))
        position += 1
        skipSpace()
        if current == close {
            position += 1
        } else {
            while true {
                guard member(&self, &nodes) else { return false }
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    skipSpace()
                } else if current == close {
                    position += 1
                    break
                } else {
                    return false
                }
            }
        }
        nodes[index].next = Int32(nodes.count)
        return true
    }

    /// A string: control characters refused, escapes checked (a high surrogate must be followed
    /// by a low one), other UTF-8 validated. A key must be plain ASCII, so it compares byte by
    /// byte the way Swift strings compare.
    private mutating func string(into nodes: inout [Tape.Node], key: Bool) -> Bool {
        position += 1
        let start = position
        var escaped = false
        var ascii = true
        while true {
            guard let byte = current else { return false }
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { return false }
            if byte >= 0x80 {
                ascii = false
                position += 1
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                guard escape() else { return false }
            } else {
                position += 1
            }
        }
        let end = position
        position += 1
        if key && (escaped || !ascii) {
            guard anyKeys else { return false }
            plainKeys = false
        }
        if !ascii, String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) == nil { return false }
        nodes.append(Tape.Node(kind: .string, flag: escaped, start: Int32(start), end: Int32(end), next: Int32(nodes.count + 1)))
        return true
    }

    /// One escape sequence at `position` (the backslash).
    private mutating func escape() -> Bool {
        position += 1
        guard let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
            return true
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: position + 1) else { return false }
            position += 5
            if (0xDC00...0xDFFF).contains(unit) { return false }
            if (0xD800...0xDBFF).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
                    let low = hex4(at: position + 2), (0xDC00...0xDFFF).contains(low)
                else { return false }
                position += 6
            }
            return true
        default:
            return false
        }
    }

    private func hex4(at index: Int) -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = Tape.hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number(into nodes: inout [Tape.Node]) -> Bool {
        let start = position
        var fractional = false
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() else { return false }
        }
        if current == UInt8(ascii: ".") {
            fractional = true
            position += 1
            guard digits() else { return false }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            fractional = true
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() else { return false }
        }
        nodes.append(Tape.Node(kind: .number, flag: fractional, start: Int32(start), end: Int32(position), next: Int32(nodes.count + 1)))
        return true
    }

    /// One or more decimal digits.
    private mutating func digits() -> Bool {
        let start = position
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position > start
    }

    private mutating func literal(_ word: StaticString, _ kind: Tape.Kind, into nodes: inout [Tape.Node]) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        position += count
        nodes.append(Tape.Node(kind: kind, flag: false, start: 0, end: 0, next: Int32(nodes.count + 1)))
        return true
    }
}

extension Tape {
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Tape {
    /// A string's bytes with its escapes resolved; nil for an escape that is no scalar (the
    /// parser checked the rest, surrogate pairs included).
    static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        func unit(at position: Int) -> UInt32 {
            (position..<position + 4).reduce(0) { $0 << 4 | UInt32(hexValue(bytes[$1]) ?? 0) }
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = unit(at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit(at: index + 2) - 0xDC00)
                    index += 6
                }
                guard let value = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: UTF8.encode(value)!)
            default: out.append(escape)  // " \\ /
            }
        }
        return out
    }

    /// The text of a string node, escapes resolved.
    func string(_ node: Node) -> String? {
        let bytes = slice(node)
        guard node.flag else { return String(decoding: bytes, as: UTF8.self) }
        return Tape.unescape(bytes).map { String(decoding: $0, as: UTF8.self) }
    }
}
