import HostStorage
import Foundation
import SandboxCrypto

/// Makes and reads the codes, tokens and secrets of the terminal lifecycle.
///
/// Formats (docs/terminal-lifecycle.md):
/// - challenge code: 8 characters of an alphabet without look-alikes, shown `ABCD-EFGH`;
/// - back-office code: `<REGION>-` and 6 digits, so a code taken to another host is recognised;
/// - registration token: `rt_<region>_` and 32 hex digits, for the same reason;
/// - session tokens and device secrets: 32 random bytes in hex, stored only as SHA-256.
package struct Credentials: Sendable {
    package let region: String
    package let random: any RandomSource

    package static let challengeAlphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    package func challengeCode() -> String {
        let characters = (0..<8).map { _ in Self.challengeAlphabet[random.int(in: 0..<Self.challengeAlphabet.count)] }
        return String(characters[0..<4]) + "-" + String(characters[4..<8])
    }

    /// The stored form of a challenge code a person typed: upper case, with the dash.
    package static func normalizeChallenge(_ text: String) -> String? {
        let plain = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard plain.count == 8, plain.allSatisfy(challengeAlphabet.contains) else { return nil }
        return String(plain.prefix(4)) + "-" + String(plain.suffix(4))
    }

    package func backOfficeCode() -> String {
        region + "-" + String(format: "%06d", random.int(in: 0...999_999))
    }

    /// Splits a back-office code into its region and digits (nil when it has neither shape).
    package static func parseBackOfficeCode(_ text: String) -> (region: String, code: String)? {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard let dash = code.lastIndex(of: "-") else { return nil }
        let region = String(code[..<dash])
        let digits = code[code.index(after: dash)...]
        guard !region.isEmpty, digits.count == 6, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return (region, code)
    }

    package func registrationToken() -> String {
        "rt_" + region.lowercased() + "_" + Hex.encode(random.bytes(count: 16))
    }

    /// The region a registration token names (nil when the text is no token at all).
    package static func tokenRegion(_ token: String) -> String? {
        guard token.hasPrefix("rt_"), let last = token.lastIndex(of: "_"), last > token.index(token.startIndex, offsetBy: 2)
        else { return nil }
        let region = token[token.index(token.startIndex, offsetBy: 3)..<last]
        let secret = token[token.index(after: last)...]
        guard !region.isEmpty, secret.count == 32, secret.allSatisfy(\.isHexDigit) else { return nil }
        return region.uppercased()
    }

    package func secret(prefix: String) -> String {
        prefix + Hex.encode(random.bytes(count: 32))
    }

    package func supportNumber() -> String {
        "SN-" + String(format: "%08d", random.int(in: 0...99_999_999))
    }

    package func salt() -> String { Hex.encode(random.bytes(count: 16)) }

    package static func hash(_ secret: String) -> String { SHA256.hexDigest(secret) }

    /// The stored form of a secure code: HMAC-SHA256 keyed with the device's salt.
    package static func pinHash(_ pin: String, salt: String) -> String {
        Hex.encode(HMACSHA256.authenticate(key: salt, message: pin))
    }

    package static func matches(_ candidate: String, hash: String) -> Bool {
        ConstantTime.equals(Array(Self.hash(candidate).utf8), Array(hash.utf8))
    }

    package static func pinMatches(_ pin: String, salt: String, hash: String) -> Bool {
        ConstantTime.equals(Array(pinHash(pin, salt: salt).utf8), Array(hash.utf8))
    }

    package init(region: String, random: any RandomSource) {
        self.region = region
        self.random = random
    }
}
