/// A Unix timestamp as senders write it: 1 to 18 ASCII digits, no sign, no fraction.
enum UnixTimestamp {
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard (1...18).contains(text.count) else { return nil }
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
