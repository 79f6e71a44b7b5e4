/// A wire object that lists its members once, in one `switch` over its keys, and gets both of
/// its encodings from that list: ``SortedJSONWritable/write(to:)`` (the sorted writer, keys in
/// byte order) and `Encodable`'s `encode(to:)` (any encoder, keys in declaration order).
///
/// A model written by hand twice drifts: a field added to one writer and not the other. Here a
/// field is written in one place, and the differential tests (`SortedJSONWritableTests`) check
/// that the sorted writer gives `JSONEncoder`'s very bytes for it.
///
/// ```swift
/// extension TerminalCurrency: JSONObjectWritable {
///     public static let memberNames = JSONMemberNames<CodingKeys>()
///
///     public func writeMember(_ key: CodingKeys, to sink: inout some JSONMemberSink) throws {
///         switch key {
///         case .code: try sink.string(code, for: key)
///         case .exponent: try sink.integer(exponent, for: key)
///         }
///     }
/// }
/// ```
public protocol JSONObjectWritable: SortedJSONWritable {
    associatedtype MemberKey: CodingKey & CaseIterable

    /// The member names, sorted and written once per type (a `static let`).
    static var memberNames: JSONMemberNames<MemberKey> { get }

    /// Writes the value of the member `key` into `sink`: one call of the sink, `null` included.
    func writeMember(_ key: MemberKey, to sink: inout some JSONMemberSink) throws
}

extension JSONObjectWritable {
    /// Every member in key byte order, as `JSONEncoder` with sorted keys writes them.
    @inlinable
    public func write(to writer: inout SortedJSONWriter) throws {
        try writer.object { w in
            for (key, name) in Self.memberNames.sorted {
                w.member(written: name)
                try writeMember(key, to: &w)
            }
        }
    }

    /// Every member in declaration order, `null` included, into a keyed container.
    @inlinable
    public func encode(to encoder: any Encoder) throws {
        let container = encoder.container(keyedBy: MemberKey.self)
        for key in MemberKey.allCases {
            var sink = KeyedMemberSink(container, key: key)
            try writeMember(key, to: &sink)
        }
    }
}
