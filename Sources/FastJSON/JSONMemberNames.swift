/// The members of a coding key type in the order `JSONEncoder` sorts them (byte order of their
/// names), each name written once as JSON with its colon.
public struct JSONMemberNames<Key: CodingKey & CaseIterable>: @unchecked Sendable {
    public let sorted: [(key: Key, name: [UInt8])]

    public init() {
        sorted = Key.allCases
            .map { key -> (key: Key, name: [UInt8]) in
                var name: [UInt8] = []
                JSONText.appendString(key.stringValue, to: &name)
                return (key, name + [UInt8(ascii: ":")])
            }
            .sorted { JSONText.compare($0.key.stringValue, $1.key.stringValue) < 0 }
    }
}
