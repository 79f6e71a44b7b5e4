/// The DNS-name rule for a flavour's `hostname` (RFC 1123 labels).
///
/// A host name here is a bare name, as the seed's table gives it: no scheme, port or path.
///
/// ```swift
/// Hostname.problem(with: "sandbox-wl-emea.softpos.eu")   // nil
/// Hostname.problem(with: "https://softpos.eu")            // "label \"https://softpos\" may hold only …"
/// ```
enum Hostname {
    /// Why `name` is not a valid DNS host name, or nil when it is one.
    ///
    /// - Parameter name: the candidate host name; a trailing dot (fully qualified) is refused
    ///   because hosts compare names as written.
    /// - Returns: a short reason fit to follow "is not a valid DNS name: ".
    static func problem(with name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.utf8.count > 253 { return "it is longer than 253 characters" }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            if label.isEmpty { return "it has an empty label" }
            if label.utf8.count > 63 { return "label \"\(label)\" is longer than 63 characters" }
            let allowed = label.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
            }
            if !allowed { return "label \"\(label)\" may hold only letters, digits and hyphens" }
            if label.hasPrefix("-") || label.hasSuffix("-") {
                return "label \"\(label)\" starts or ends with a hyphen"
            }
        }
        return nil
    }
}
