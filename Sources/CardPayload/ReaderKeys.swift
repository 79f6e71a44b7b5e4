import Foundation
import SandboxCrypto

/// The reader keys of `sandbox-data/reader-keys.json`: one AES-256 key per region.
///
/// ```json
/// {"EU": "6d867c65…0166", "ANZ": "be5c8b3e…4f15", "PAYONE_DE": "…"}
/// ```
///
/// A host loads the file at start, checks that its region has a key, and serves the key to a
/// logged-in device at prepare (`POST /terminal/v1/reader/prepare`); in production Apple's
/// reader token plays this part. The keys are public test values, not secrets.
///
/// ```swift
/// let keys = try ReaderKeys.load(from: dataDirectory.appendingPathComponent("reader-keys.json"))
/// try keys.requireRegions(catalogue.regions.map(\.id))
/// let key = keys.key(for: "EU")!        // 32 bytes
/// let keyId = keys.keyId(for: "EU")!    // "EU-1f0c3a9e"
/// ```
public struct ReaderKeys: Sendable, Equatable {
    /// Each region's 32-byte key, by region id.
    public let keys: [String: [UInt8]]

    /// Keys given in code, checked by the same rules as the file.
    ///
    /// - Parameter keys: 32-byte keys by region id; at least one, no two equal.
    /// - Throws: ``PayloadError/invalidKeyFile`` naming the region that breaks a rule.
    public init(keys: [String: [UInt8]]) throws(PayloadError) {
        try self.init(checking: keys.mapValues { Hex.encode($0) }, file: "(code)")
    }

    /// Reads and checks a key file.
    ///
    /// - Parameter url: The file, normally `sandbox-data/reader-keys.json`.
    /// - Returns: The keys.
    /// - Throws: ``PayloadError/invalidKeyFile`` whose message reads
    ///   `reader-keys.json: <region>: <problem>`.
    public static func load(from url: URL) throws(PayloadError) -> ReaderKeys {
        let file = url.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .invalidKeyFile(file: file, path: "(root)", reason: "cannot be read")
        }
        return try ReaderKeys(json: data, file: file)
    }

    /// Checks a key file's bytes.
    ///
    /// - Parameters:
    ///   - json: A JSON object of region id → 64 hex characters.
    ///   - file: The name used in error messages.
    /// - Throws: ``PayloadError/invalidKeyFile`` naming the file, the region and the problem.
    public init(json: Data, file: String = "reader-keys.json") throws(PayloadError) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw .invalidKeyFile(file: file, path: "(root)", reason: "not valid JSON")
        }
        guard let object = root as? [String: Any] else {
            throw .invalidKeyFile(file: file, path: "(root)", reason: "must be an object of region id to key")
        }
        var hexKeys: [String: String] = [:]
        for region in object.keys.sorted() {
            guard let hex = object[region] as? String else {
                throw .invalidKeyFile(file: file, path: region, reason: "must be a string of 64 hex characters")
            }
            hexKeys[region] = hex
        }
        try self.init(checking: hexKeys, file: file)
    }

    private init(checking hexKeys: [String: String], file: String) throws(PayloadError) {
        guard !hexKeys.isEmpty else {
            throw .invalidKeyFile(file: file, path: "(root)", reason: "must give at least one region")
        }
        var keys: [String: [UInt8]] = [:]
        var owners: [String: String] = [:]
        for region in hexKeys.keys.sorted() {
            let hex = hexKeys[region]!
            guard !region.isEmpty, region.utf8.allSatisfy(Self.isRegionIDByte) else {
                throw .invalidKeyFile(
                    file: file, path: region, reason: "region id must be upper-case letters, digits and _")
            }
            guard hex.utf8.count == 2 * AESGCM.keyByteCount, let key = try? Hex.decode(hex) else {
                throw .invalidKeyFile(file: file, path: region, reason: "must be 64 hex characters (32 bytes)")
            }
            let normalised = Hex.encode(key)
            if let owner = owners[normalised] {
                throw .invalidKeyFile(file: file, path: region, reason: "same key as \(owner); every region needs its own")
            }
            owners[normalised] = region
            keys[region] = key
        }
        self.keys = keys
    }

    private static func isRegionIDByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// The region ids that have a key, sorted.
    public var regions: [String] { keys.keys.sorted() }

    /// The key of a region.
    ///
    /// - Parameter region: A region id (`EU`).
    /// - Returns: 32 bytes, or `nil` when the file gives that region no key.
    public func key(for region: String) -> [UInt8]? {
        keys[region]
    }

    /// A short public name of a region's key, for the prepare answer's `keyId` and for logs:
    /// the region id, `-`, and the first 8 hex characters of the key's SHA-256.
    ///
    /// It changes whenever the key changes, so a device can tell it holds a stale key, and it
    /// reveals nothing that opens a payload.
    ///
    /// - Parameter region: A region id.
    /// - Returns: For example `EU-1f0c3a9e`, or `nil` when the region has no key.
    public func keyId(for region: String) -> String? {
        guard let key = keys[region] else { return nil }
        return "\(region)-\(SHA256.hexDigest(key).prefix(8))"
    }

    /// Checks that every region of the environment catalogue has a key.
    ///
    /// This module does not read `environments.json`; the host passes its region ids.
    ///
    /// - Parameters:
    ///   - regions: The region ids that must be covered.
    ///   - file: The name used in the error message.
    /// - Throws: ``PayloadError/invalidKeyFile`` naming the first region without a key.
    public func requireRegions(_ regions: some Sequence<String>, file: String = "reader-keys.json") throws(PayloadError) {
        for region in regions where keys[region] == nil {
            throw .invalidKeyFile(file: file, path: region, reason: "no reader key for this region")
        }
    }
}
