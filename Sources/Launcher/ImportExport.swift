import CommandLineSupport
import Foundation
import SandboxControl

/// `sandbox up --import DIR` and `--export-on-exit DIR`: a sandbox's whole state as a folder,
/// carried from one data directory (or machine, or CI job) to another. The folder is a snapshot's:
/// one file per service (`eu.sqlite`, `eu.faults.json`, `wallet.sqlite`, `inbox.json`, …), so an
/// exported folder can also be put in `<data-dir>/snapshots/` and restored by name.
enum StateFolder {
    /// The snapshot name an import or export passes through, in `<data-dir>/snapshots/`.
    static let transit = "transit-state"

    /// Brings `folder`'s state into the running sandbox, whole: it is copied in as a snapshot and
    /// restored on every service (one missing its part refuses it, and nothing changes); the
    /// snapshot is removed again.
    static func importState(from folder: URL, into sandbox: RunningSandbox, dataDirectory: URL) throws -> String {
        let shelf = dataDirectory.appendingPathComponent("snapshots").appendingPathComponent(transit)
        let files = FileManager.default
        try? files.removeItem(at: shelf)
        try files.createDirectory(at: shelf.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.copyItem(at: folder, to: shelf)
        defer { try? files.removeItem(at: shelf) }
        do {
            _ = try sandbox.restored(transit)
        } catch {
            throw CommandFailure(
                description: "--import \(folder.path): " + "\(error)".replacingOccurrences(of: "snapshot '\(transit)'", with: "the folder"))
        }
        return "Imported the state of \(sandbox.services.count) services from \(folder.path)."
    }

    /// Saves every service's state and puts it in `folder` (replacing what it held), then removes
    /// the snapshot it passed through.
    static func exportState(to folder: URL, from sandbox: RunningSandbox, dataDirectory: URL) throws -> String {
        try sandbox.save(transit)
        let shelf = dataDirectory.appendingPathComponent("snapshots").appendingPathComponent(transit)
        let files = FileManager.default
        defer { try? files.removeItem(at: shelf) }
        let staging = folder.deletingLastPathComponent().appendingPathComponent(".\(folder.lastPathComponent).\(getpid())")
        try? files.removeItem(at: staging)
        try files.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.copyItem(at: shelf, to: staging)
        try? files.removeItem(at: folder)
        try files.moveItem(at: staging, to: folder)
        return "Exported the state of \(sandbox.services.count) services to \(folder.path)."
    }

    /// An import folder that exists and holds at least one service's part.
    static func checkImport(_ path: String) throws -> URL {
        let folder = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--import \(path): no such folder (an earlier 'sandbox up --export-on-exit' writes one)")
        }
        let parts = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard parts.contains(where: { $0.hasSuffix(".sqlite") || $0 == "inbox.json" }) else {
            throw UsageError("--import \(path): not a sandbox's state (no <region>.sqlite, wallet.sqlite or inbox.json in it)")
        }
        return folder
    }
}
