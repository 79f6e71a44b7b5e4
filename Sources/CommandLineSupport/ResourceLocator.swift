import Foundation

/// Finds the folders an executable reads at start (`sandbox-data`, `web`, `openapi`).
///
/// In order: the path given on the command line; then `<name>` beside the executable (its real
/// path, symlinks resolved) or up to four folders above it, so a binary in `.build/release/` finds
/// the checkout's folders and one in `/app/bin` finds `/app`; then the install prefix's
/// `share/tapsandbox/<name>` (`make install PREFIX=…`); then `$TAPSANDBOX_HOME/<name>`; then
/// `<name>` in the working directory.
///
/// ```swift
/// let data = try ResourceLocator.directory("sandbox-data", explicit: options.string("sandbox-data"))
/// ```
public enum ResourceLocator {
    /// The variable that names a folder holding `sandbox-data`, `web` and `openapi`.
    public static let homeVariable = "TAPSANDBOX_HOME"

    /// Where `make install` puts the folders, below the install prefix.
    public static let shareFolder = "share/tapsandbox"

    /// How every `--help` says where the folders come from.
    public static let helpText = [
        "sandbox-data, web and openapi are found, when no option names them: beside the executable or up to",
        "four folders above it (symlinks resolved: .build/release finds the checkout), in <prefix>/\(shareFolder)",
        "(make install), in $\(homeVariable), then in the working directory.",
    ]

    public static func directory(
        _ name: String, explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> URL {
        if let explicit {
            let url = URL(fileURLWithPath: explicit)
            guard isDirectory(url) else { throw UsageError("\(explicit) is not a directory") }
            return url.standardizedFileURL
        }
        let places = candidates(
            name, executable: runningExecutable(), environment: environment,
            workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        guard let found = places.first(where: isDirectory) else {
            throw UsageError(missing(name, looked: places, environment: environment))
        }
        return found.standardizedFileURL
    }

    /// Every place `directory` looks for `name`, in order.
    public static func candidates(_ name: String, executable: URL?, environment: [String: String], workingDirectory: URL) -> [URL] {
        var places: [URL] = []
        if let executable {
            var folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                places.append(folder.appendingPathComponent(name))
                folder.deleteLastPathComponent()
            }
            let prefix = executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            places.append(prefix.appendingPathComponent(shareFolder).appendingPathComponent(name))
        }
        if let home = environment[homeVariable], !home.isEmpty {
            places.append(URL(fileURLWithPath: home).appendingPathComponent(name))
        }
        places.append(workingDirectory.appendingPathComponent(name))
        var seen = Set<String>()
        return places.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
    }

    /// The error when no place has the folder: every place, and how to name one.
    public static func missing(_ name: String, looked places: [URL], environment: [String: String]) -> String {
        let home = environment[homeVariable].map { "\(homeVariable) is \($0)" } ?? "\(homeVariable) is not set"
        return "cannot find the '\(name)' folder; looked in:\n"
            + places.map { "  \($0.path)\n" }.joined()
            + "Pass --\(name) DIR, or set \(homeVariable) to the folder that holds sandbox-data, web and openapi (\(home))."
    }

    /// The running executable's path: `/proc/self/exe` on Linux (`Bundle.main`), the loader's on
    /// Apple platforms; `argv[0]` when it names a path.
    static func runningExecutable() -> URL? {
        if let url = Bundle.main.executableURL { return url }
        let first = CommandLine.arguments.first ?? ""
        return first.contains("/") ? URL(fileURLWithPath: first) : nil
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }
}
