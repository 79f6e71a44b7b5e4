import Foundation

/// Finds the folders an executable reads at start (`sandbox-data`, `web`, `openapi`).
///
/// In order: the path given on the command line; `$TAPSANDBOX_HOME/<name>`; `<name>` in the
/// working directory; `<name>` beside the executable or up to four folders above it (so a
/// binary in `.build/release/` finds the checkout's folders, and one in `/app/bin` finds `/app`).
public enum ResourceLocator {
    public static func directory(
        _ name: String, explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> URL {
        let fileManager = FileManager.default
        func isDirectory(_ url: URL) -> Bool {
            var directory: ObjCBool = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
        }
        if let explicit {
            let url = URL(fileURLWithPath: explicit)
            guard isDirectory(url) else { throw UsageError("\(explicit) is not a directory") }
            return url.standardizedFileURL
        }
        var candidates: [URL] = []
        if let home = environment["TAPSANDBOX_HOME"] {
            candidates.append(URL(fileURLWithPath: home).appendingPathComponent(name))
        }
        candidates.append(URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent(name))
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent(name))
            folder.deleteLastPathComponent()
        }
        guard let found = candidates.first(where: isDirectory) else {
            throw UsageError("cannot find the '\(name)' folder; run from the checkout or pass its path")
        }
        return found.standardizedFileURL
    }
}
