/// The entries of a list-valued signature header, as views into the header's own bytes.
///
/// `MONEI-Signature` separates `key=value` entries with commas (an empty entry is kept, so that
/// `t=1,,v1=…` is refused as malformed); `webhook-signature` separates `<version>,<signature>`
/// entries with runs of spaces and tabs. Nothing is copied.
struct HeaderEntries: Sequence, IteratorProtocol {
    enum Separator {
        /// `,`; empty entries are returned.
        case comma
        /// Spaces and tabs; empty entries are skipped.
        case blanks
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let separator: Separator
    private var position = 0
    private var finished = false

    init(_ bytes: UnsafeBufferPointer<UInt8>, separatedBy separator: Separator) {
        self.bytes = bytes
        self.separator = separator
    }

    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        switch separator {
        case .comma:
            guard !finished else { return nil }
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            let entry = UnsafeBufferPointer(rebasing: bytes[position..<end])
            if end == bytes.count { finished = true } else { position = end + 1 }
            return entry
        case .blanks:
            while position < bytes.count, HeaderLookup.isBlank(bytes[position]) { position += 1 }
            guard position < bytes.count else { return nil }
            var end = position
            while end < bytes.count, !HeaderLookup.isBlank(bytes[end]) { end += 1 }
            defer { position = end }
            return UnsafeBufferPointer(rebasing: bytes[position..<end])
        }
    }
}
