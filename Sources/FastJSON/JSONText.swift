import Foundation

/// JSON text as `JSONEncoder` writes it, shared by `SortedJSONEncoder` and ``SortedJSONWriter``.
public enum JSONText {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string: quotes, backslash and control characters escaped the way
    /// JSONEncoder does (`\b \f \n \r \t`, others `\u00xx`), `/` and everything else as is.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var plainFrom = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom..<index]))
                plainFrom = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: out.append(UInt8(ascii: "\""))
                case 0x5C: out.append(UInt8(ascii: "\\"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The order JSONEncoder sorts keys in: the byte order of their UTF-8 (memcmp on native
    /// strings, as coding keys are).
    public static func compare(_ a: String, _ b: String) -> Int {
        let fast = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right -> Int in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : Int(memcmp(left.baseAddress!, right.baseAddress!, common))
                return order != 0 ? order : left.count - right.count
            }
        }
        if let fast, let order = fast { return order }
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    /// A finite number as JSONEncoder writes it (Swift's shortest form, `.0` dropped); nil for
    /// infinity and NaN, which JSON cannot hold.
    public static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
