/// An iOS version, compared component by component (`16.7` < `16.10` < `17`).
///
/// ```swift
/// OSVersion("16.7.2")! >= OSVersion(16, 7)   // true
/// OSVersion("sixteen")                       // nil
/// ```
public struct OSVersion: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    /// The major version (`16`).
    public var major: Int
    /// The minor version; 0 when not written.
    public var minor: Int
    /// The patch version; 0 when not written.
    public var patch: Int

    /// A version from its numbers.
    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `major[.minor[.patch]]`, each a run of ASCII digits.
    ///
    /// - Parameter text: For example `18.5` or `16.7.2`.
    /// - Returns: The version, or `nil` for anything else (`""`, `16.`, `16.7.2.1`, `v17`).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= 4, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        numbers += Array(repeating: 0, count: 3 - numbers.count)
        self.init(numbers[0], numbers[1], numbers[2])
    }

    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public var description: String {
        patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)"
    }
}
