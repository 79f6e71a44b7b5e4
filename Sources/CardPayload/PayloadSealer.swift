import FastJSON
import Foundation
import SandboxCrypto

/// Seals payloads on the reader and opens them on the host: AES-256-GCM under the region's
/// reader key, sent as base64 of `nonce ‖ ciphertext ‖ tag`.
///
/// The associated data is `tapsandbox-card-v1|<REGION>|<terminalId>`, so a payload sealed
/// for one terminal or region opens nowhere else, even under the same key.
///
/// ```swift
/// // Device:
/// let sealed = try PayloadSealer.seal(payload, key: readerKey, region: "EU", terminalId: "EU-T0101")
/// // Host:
/// let opened = try PayloadSealer.open(sealed, as: CardPayload.self,
///                                     key: readerKey, region: "EU", terminalId: "EU-T0101")
/// ```
///
/// The JSON is written with sorted keys, so the same payload, key and random source always
/// give the same text.
public enum PayloadSealer {
    /// The prefix of the associated data; the version tag changes if the format does.
    public static let associatedDataPrefix = "tapsandbox-card-v1"

    /// The associated data both sides authenticate.
    ///
    /// - Parameters:
    ///   - region: The region id (`EU`), as written in `environments.json`.
    ///   - terminalId: The terminal the payload is for.
    /// - Returns: The UTF-8 bytes of `tapsandbox-card-v1|<region>|<terminalId>`.
    public static func associatedData(region: String, terminalId: String) -> [UInt8] {
        Array("\(associatedDataPrefix)|\(region)|\(terminalId)".utf8)
    }

    /// Encodes `payload` as JSON and seals it.
    ///
    /// - Parameters:
    ///   - payload: A ``CardPayload``, a ``PinPayload`` or any other encodable value.
    ///   - key: The region's 32-byte reader key.
    ///   - region: The region id, part of the associated data.
    ///   - terminalId: The terminal id, part of the associated data.
    ///   - random: Where the 12-byte nonce comes from; `nil` (default) for the system's
    ///     secure random. Pass a seeded source only in tests.
    /// - Returns: Base64 (standard alphabet, padded) of `nonce ‖ ciphertext ‖ tag`.
    /// - Throws: ``PayloadError/invalidKey`` for a key that is not 32 bytes,
    ///   ``PayloadError/sealingFailed`` if encoding or encryption fails.
    public static func seal(
        _ payload: some Encodable,
        key: [UInt8],
        region: String,
        terminalId: String,
        random: (any RandomSource)? = nil
    ) throws(PayloadError) -> String {
        guard key.count == AESGCM.keyByteCount else { throw .invalidKey }
        let plaintext: Data
        do {
            plaintext = try encoder.encode(payload)
        } catch {
            throw .sealingFailed("\(error)")
        }
        let nonce = random?.bytes(count: AESGCM.nonceByteCount)
        do {
            let box = try AESGCM.seal(
                plaintext, key: key, nonce: nonce,
                associatedData: associatedData(region: region, terminalId: terminalId))
            return Base64.encode(box.combined)
        } catch {
            throw .sealingFailed("\(error)")
        }
    }

    /// Checks and decrypts a sealed payload, then decodes its JSON.
    ///
    /// Nothing is decoded unless the whole payload is authentic for this key, region and
    /// terminal.
    ///
    /// - Parameters:
    ///   - sealed: What ``seal(_:key:region:terminalId:random:)`` produced.
    ///   - type: The payload type, ``CardPayload`` or ``PinPayload``.
    ///   - key: The region's 32-byte reader key.
    ///   - region: The region id the host serves.
    ///   - terminalId: The terminal of the session that sent it.
    /// - Returns: The decoded payload.
    /// - Throws: ``PayloadError/notBase64``, ``PayloadError/tooShort`` (under 28 bytes),
    ///   ``PayloadError/authenticationFailed`` (changed bytes, wrong key, terminal or region),
    ///   ``PayloadError/malformed`` (authentic but not the expected JSON),
    ///   ``PayloadError/invalidKey`` (key not 32 bytes); for a ``CardPayload`` whose card breaks
    ///   a rule of ``CardData/problem``, or names an unknown brand or CVM, that refusal
    ///   (``PayloadError/refusesCard`` is true).
    public static func open<T: Decodable>(
        _ sealed: String,
        as type: T.Type,
        key: [UInt8],
        region: String,
        terminalId: String
    ) throws(PayloadError) -> T {
        guard key.count == AESGCM.keyByteCount else { throw .invalidKey }
        let bytes: [UInt8]
        do {
            bytes = try Base64.decode(sealed)
        } catch {
            throw .notBase64
        }
        guard bytes.count >= AESGCM.nonceByteCount + AESGCM.tagByteCount else { throw .tooShort }
        let plaintext: [UInt8]
        do {
            let box = try AESGCM.SealedBox(combined: bytes)
            plaintext = try AESGCM.open(
                box, key: key, associatedData: associatedData(region: region, terminalId: terminalId))
        } catch {
            throw .authenticationFailed
        }
        let checked: JSONShape.Checked
        do throws(JSONShape.Violation) {
            // A key twice would read differently in another reader of the same payload.
            checked = try JSONShape.check(plaintext)
        } catch {
            throw .malformed(error.message)
        }
        do {
            return try FastJSONDecoder.decode(T.self, from: checked)
        } catch let refusal as PayloadError {
            // The card itself is refused (CardData's rules): say which rule, not "malformed".
            throw refusal
        } catch {
            throw .malformed(describe(error))
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A short account of a decoding failure: the field path and the reason.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func path(_ keys: [any CodingKey]) -> String {
            let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "(root)" : names.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)): wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not JSON"
        }
    }
}
