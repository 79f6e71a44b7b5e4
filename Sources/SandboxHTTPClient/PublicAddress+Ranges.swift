extension PublicAddress {
    /// One special-purpose block: no webhook may go there.
    struct Block: Sendable {
        /// 4 (IPv4) or 16 (IPv6) bytes, zeros past the prefix.
        let prefix: [UInt8]
        let length: Int
        let name: String

        static func v4(_ prefix: [UInt8], _ length: Int, _ name: String) -> Block {
            Block(prefix: prefix + Array(repeating: 0, count: 4 - prefix.count), length: length, name: name)
        }

        static func v6(_ prefix: [UInt8], _ length: Int, _ name: String) -> Block {
            Block(prefix: prefix + Array(repeating: 0, count: 16 - prefix.count), length: length, name: name)
        }

        func contains(_ bytes: [UInt8]) -> Bool {
            guard bytes.count == prefix.count else { return false }
            var left = length
            for index in prefix.indices where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if bytes[index] & mask != prefix[index] & mask { return false }
                left -= bits
            }
            return true
        }
    }

    /// The IPv4 blocks of the IANA special-purpose registry (RFC 6890 and its updates) that are
    /// not globally reachable unicast, plus multicast, reserved and broadcast.
    static let ipv4Blocks: [Block] = [
        Block.v4([0], 8, "\"this network\" (0.0.0.0/8)"),
        Block.v4([10], 8, "private-use (10.0.0.0/8)"),
        Block.v4([100, 64], 10, "shared address space (100.64.0.0/10)"),
        Block.v4([127], 8, "loopback (127.0.0.0/8)"),
        Block.v4([169, 254], 16, "link-local (169.254.0.0/16)"),
        Block.v4([172, 16], 12, "private-use (172.16.0.0/12)"),
        Block.v4([192, 0, 0], 24, "IETF protocol assignments (192.0.0.0/24)"),
        Block.v4([192, 0, 2], 24, "documentation (192.0.2.0/24)"),
        Block.v4([192, 88, 99], 24, "6to4 relay anycast (192.88.99.0/24)"),
        Block.v4([192, 168], 16, "private-use (192.168.0.0/16)"),
        Block.v4([198, 18], 15, "benchmarking (198.18.0.0/15)"),
        Block.v4([198, 51, 100], 24, "documentation (198.51.100.0/24)"),
        Block.v4([203, 0, 113], 24, "documentation (203.0.113.0/24)"),
        Block.v4([224], 4, "multicast (224.0.0.0/4)"),
        Block.v4([255, 255, 255, 255], 32, "limited broadcast (255.255.255.255)"),
        Block.v4([240], 4, "reserved (240.0.0.0/4)"),
    ]

    /// The IPv6 blocks that are not globally reachable unicast (embeddings of IPv4 are read apart).
    static let ipv6Blocks: [Block] = [
        Block.v6([0], 128, "unspecified (::)"),
        Block.v6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback (::1)"),
        Block.v6([0], 96, "IPv4-compatible (::/96, deprecated)"),
        Block.v6([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01], 48, "local-use NAT64 (64:ff9b:1::/48)"),
        Block.v6([0x01, 0x00], 64, "discard-only (100::/64)"),
        Block.v6([0x20, 0x01, 0x0D, 0xB8], 32, "documentation (2001:db8::/32)"),
        Block.v6([0x20, 0x01], 23, "IETF protocol assignments, Teredo included (2001::/23)"),
        Block.v6([0x3F, 0xFF], 20, "documentation (3fff::/20)"),
        Block.v6([0xFC], 7, "unique-local (fc00::/7)"),
        Block.v6([0xFE, 0x80], 10, "link-local (fe80::/10)"),
        Block.v6([0xFE, 0xC0], 10, "site-local (fec0::/10, deprecated)"),
        Block.v6([0xFF], 8, "multicast (ff00::/8)"),
    ]

    /// Why an address is no public unicast one, or nil when it is.
    ///
    /// An IPv6 address that carries an IPv4 one (IPv4-mapped `::ffff:0:0/96`, NAT64
    /// `64:ff9b::/96`, 6to4 `2002::/16`) reaches that IPv4 address, so it is judged by it.
    public static func specialRange(of address: IPAddress) -> String? {
        let bytes = address.bytes
        if address.isIPv4 { return ipv4Blocks.first { $0.contains(bytes) }?.name }
        if let mapped = address.mappedIPv4 {
            return specialRange(of: mapped).map { "IPv4-mapped \(mapped), \($0)" }
        }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0][...], let embedded = IPAddress(bytes: Array(bytes[12...])) {
            return specialRange(of: embedded).map { "NAT64 (64:ff9b::/96) of \(embedded), \($0)" }
        }
        if bytes[0] == 0x20, bytes[1] == 0x02, let embedded = IPAddress(bytes: Array(bytes[2..<6])) {
            return specialRange(of: embedded).map { "6to4 (2002::/16) of \(embedded), \($0)" }
        }
        if let block = ipv6Blocks.first(where: { $0.contains(bytes) }) { return block.name }
        // Global unicast is 2000::/3; the rest of the space is reserved or unassigned.
        guard bytes[0] & 0xE0 == 0x20 else { return "not global unicast (outside 2000::/3)" }
        return nil
    }

    /// Loopback in either family (127.0.0.0/8, `::1`, `::ffff:127.x.y.z`).
    public static func isLoopback(_ address: IPAddress) -> Bool {
        if let mapped = address.mappedIPv4 { return isLoopback(mapped) }
        if address.isIPv4 { return address.bytes[0] == 127 }
        return address.bytes[0..<15].allSatisfy { $0 == 0 } && address.bytes[15] == 1
    }
}
