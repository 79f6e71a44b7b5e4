import Foundation

/// The value rules of `merchants.json` that do not depend on a region.
///
/// Each check answers nil for a good value, or the reason that follows the field's path in a
/// ``CatalogueError`` line, so decoding code reads as "check, then throw at this key".
///
/// ```swift
/// FixtureRules.idProblem("EU-T0101")       // nil
/// FixtureRules.terminalCodeProblem("12a4") // "\"12a4\" is not a terminal code (4 to 6 digits)"
/// ```
enum FixtureRules {
    /// Merchant and terminal ids appear in URLs (`/backoffice/v1/terminals/{terminalId}`), so
    /// they keep to characters that never need escaping.
    static func idProblem(_ id: String) -> String? {
        let allowed = id.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0) || $0 == "-" || $0 == "_") }
        guard !id.isEmpty, id.utf8.count <= 64, allowed else {
            return "\"\(id)\" is not an id (1 to 64 letters, digits, \"-\" and \"_\")"
        }
        return nil
    }

    /// API and back-office keys travel as `Authorization: Bearer <key>`: long enough not to be
    /// guessed by accident, and plain enough to paste into a shell.
    static func keyProblem(_ key: String) -> String? {
        let allowed = key.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0) || $0 == "-" || $0 == "_") }
        guard (8...128).contains(key.utf8.count), allowed else {
            return "\"\(key)\" is not a key (8 to 128 letters, digits, \"-\" and \"_\")"
        }
        return nil
    }

    /// A terminal code is what the SDK asks before a refund: 4 to 6 ASCII digits.
    static func terminalCodeProblem(_ code: String) -> String? {
        guard (4...6).contains(code.utf8.count), code.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            return "\"\(code)\" is not a terminal code (4 to 6 digits)"
        }
        return nil
    }

    /// A pragmatic e-mail shape: one `@`, something before it, a dotted domain after it, no spaces.
    static func emailProblem(_ address: String) -> String? {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        let valid = parts.count == 2 && !parts[0].isEmpty
            && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !address.contains(where: \.isWhitespace)
        return valid ? nil : "\"\(address)\" is not an e-mail address"
    }

    /// Policy links open in a browser, so they must be absolute http or https URLs with a host.
    static func urlProblem(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty
        else {
            return "\"\(text)\" is not an http or https URL"
        }
        return nil
    }

    /// Reference patterns are handed to `NSRegularExpression` by the SDK; one that does not
    /// compile there would fail every sale, so it fails the load instead.
    static func patternProblem(_ pattern: String) -> String? {
        if pattern.isEmpty { return "must not be empty; write null to accept any reference" }
        do {
            _ = try NSRegularExpression(pattern: pattern)
            return nil
        } catch {
            return "\"\(pattern)\" is not a valid regular expression"
        }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a string and refuses it when `problem` finds one, at this key.
    func decode(_ key: Key, checkedBy problem: (String) -> String?) throws -> String {
        let value = try decode(String.self, forKey: key)
        if let reason = problem(value) {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: reason)
        }
        return value
    }

    /// Decodes a string that may be absent or null and refuses it when `problem` finds one.
    func decodeIfPresent(_ key: Key, checkedBy problem: (String) -> String?) throws -> String? {
        guard let value = try decodeIfPresent(String.self, forKey: key) else { return nil }
        if let reason = problem(value) {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: reason)
        }
        return value
    }

    /// Decodes a string that must hold more than white space.
    func decodeNonEmpty(_ key: Key) throws -> String {
        try decode(key) { $0.allSatisfy(\.isWhitespace) ? "must not be empty" : nil }
    }

    /// Decodes a whole number of seconds above zero, or nil when absent or null.
    func decodeSecondsIfPresent(forKey key: Key) throws -> Int? {
        guard let seconds = try decodeWholeNumberIfPresent(forKey: key) else { return nil }
        guard seconds > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "must be a positive number of seconds or null")
        }
        return seconds
    }
}
