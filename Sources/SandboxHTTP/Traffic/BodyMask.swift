import Foundation

/// A body as the journal may show it: card data and secrets replaced, everything else as sent.
///
/// In a JSON body the values of secret fields (sealed card and PIN payloads, secure codes,
/// device secrets, session and registration tokens, keys and signing secrets) become `"***"`,
/// at any depth; then any run of 13 to 19 digits (a PAN, wherever it stands) keeps only its first
/// six and last four. A body that is not JSON gets the digit rule only.
///
/// ```swift
/// BodyMask.masked(Array(#"{"pin":"1234","amount":1250}"#.utf8))   // {"amount":1250,"pin":"***"}
/// ```
public enum BodyMask {
    /// The fields whose values never show, matched without regard to case.
    public static let secretFields: Set<String> = [
        "cardpayload", "pinpayload", "pin", "newpin", "oldpin", "devicesecret", "sessiontoken", "registrationtoken", "secret",
        "signingsecret", "apikey", "backofficekey", "authorization", "password", "verificationcode",
        // A back-office code registers a device; a registration token's QR (its text and its
        // picture) carries the token.
        "backofficecode", "qrpayload", "qrsvg",
    ]

    /// The largest body the journal keeps (masked): a larger one is noted by its size only, so
    /// that no client pins memory with big bodies and masking stays short.
    public static let keptBytes = 16 * 1024

    /// A body as the journal keeps it: its bytes up to ``keptBytes``, else a note of its size
    /// (never a cut body: a secret field cut in half would no longer be recognised and masked).
    /// Masking waits until someone reads the entry, off the connection's thread.
    public enum Kept: Sendable {
        case bytes([UInt8])
        case note(String)

        /// What the journal shows: the bytes masked, or the note.
        public var shown: String? {
            switch self {
            case .bytes(let body): BodyMask.masked(body)
            case .note(let note): note
            }
        }
    }

    /// What the journal keeps of `body` (nil for none).
    public static func kept(_ body: [UInt8]) -> Kept? {
        guard !body.isEmpty else { return nil }
        guard body.count <= keptBytes else { return .note("(a body of \(body.count) bytes, not kept: the journal keeps bodies up to \(keptBytes) bytes)") }
        return .bytes(body)
    }

    public static func masked(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        if let object = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: mask(object), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]),
            let text = String(data: data, encoding: .utf8)
        {
            return maskingPANs(text)
        }
        return maskingPANs(String(decoding: body.prefix(64 * 1024), as: UTF8.self))
    }

    private static func mask(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            return Dictionary(uniqueKeysWithValues: object.map { key, value in
                (key, secretFields.contains(key.lowercased()) ? "***" : mask(value))
            })
        case let array as [Any]:
            return array.map(mask)
        default:
            return value
        }
    }

    /// Every run of 13 to 19 digits as `476173******0011`.
    static func maskingPANs(_ text: String) -> String {
        var result = ""
        var digits = ""
        func flush() {
            if (13...19).contains(digits.count) {
                result += digits.prefix(6) + String(repeating: "*", count: digits.count - 10) + digits.suffix(4)
            } else {
                result += digits
            }
            digits = ""
        }
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
