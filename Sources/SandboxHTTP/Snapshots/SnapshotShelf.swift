import Foundation
import SandboxWire

/// A service's named snapshots in a folder that every service of a sandbox shares:
/// `<folder>/<name>/<file>`, so one name gathers each service's part (`eu.sqlite`,
/// `eu.faults.json`, `wallet.sqlite`, `inbox.json`, …) and `sandbox snapshot list` reads them all.
///
/// ```swift
/// let shelf = SnapshotShelf(folder: dataDirectory.appendingPathComponent("snapshots"), file: "eu.sqlite")
/// try shelf.save("before") { url in try store.read { db in try db.backup(to: url.path) } }
/// ```
public struct SnapshotShelf: Sendable {
    /// One saved snapshot, as `GET /_sandbox/snapshots` lists it.
    public struct Entry: Codable, Sendable, Equatable {
        public let name: String
        /// When it was saved (real time, from the file).
        public let savedAt: String
        /// The size of this service's part.
        public let bytes: Int
    }

    public let folder: URL
    /// This service's part of a snapshot: the file, beside which ``sidecar(_:of:)`` files may go.
    public let file: String

    public init(folder: URL, file: String) {
        self.folder = folder
        self.file = file
    }

    /// A name: a letter or digit, then up to 63 letters, digits, `.`, `_` or `-`: it is a folder's
    /// name, so nothing in it reaches outside the shelf.
    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        func letterOrDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
        return letterOrDigit(bytes[0]) && bytes.allSatisfy { letterOrDigit($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    /// Where this service's part of snapshot `name` is.
    public func location(of name: String) -> URL {
        folder.appendingPathComponent(name, isDirectory: true).appendingPathComponent(file)
    }

    /// A file kept beside this service's part (`eu.faults.json` beside `eu.sqlite`).
    public func sidecar(_ suffix: String, of name: String) -> URL {
        let base = (file as NSString).deletingPathExtension
        return folder.appendingPathComponent(name, isDirectory: true).appendingPathComponent(base + "." + suffix)
    }

    /// The snapshots that hold this service's part, by name.
    public func list() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter(Self.isValid).sorted().compactMap(entry)
    }

    /// Snapshot `name`, when it holds this service's part.
    public func entry(_ name: String) -> Entry? {
        guard Self.isValid(name),
            let attributes = try? FileManager.default.attributesOfItem(atPath: location(of: name).path),
            let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date
        else { return nil }
        return Entry(name: name, savedAt: WireTime.string(from: date), bytes: size.intValue)
    }

    /// Writes this service's part of snapshot `name` through `write`, which makes a new file at
    /// the URL it is given; a part saved before under that name is replaced only once the new one
    /// is whole.
    public func save(_ name: String, _ write: (URL) throws -> Void) throws -> Entry {
        let target = location(of: name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(file).\(UUID().uuidString).partial")
        do {
            try write(partial)
            // rename(2) replaces an older part in one step: a reader finds the old file or the new.
            guard rename(partial.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        guard let entry = entry(name) else { throw CocoaError(.fileNoSuchFile) }
        return entry
    }

    /// Removes this service's part of snapshot `name` and its sidecars (and the snapshot's folder
    /// once no service's part is left); false when there was none.
    public func remove(_ name: String) -> Bool {
        guard entry(name) != nil else { return false }
        let directory = folder.appendingPathComponent(name, isDirectory: true)
        let base = (file as NSString).deletingPathExtension + "."
        for item in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where item == file || item.hasPrefix(base) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(item))
        }
        if ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).isEmpty {
            try? FileManager.default.removeItem(at: directory)
        }
        return true
    }
}
