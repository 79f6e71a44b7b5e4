import Foundation

/// Where the checkout and the built executables are, seen from a test.
public enum Paths {
    /// The package root (the folder with Package.swift).
    public static let repository: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    public static var sandboxData: URL { repository.appendingPathComponent("sandbox-data") }
    public static var web: URL { repository.appendingPathComponent("web") }
    public static var openAPI: URL { repository.appendingPathComponent("openapi") }

    /// The build folder the running test bundle lives in (`.build/debug`), where `swift build`
    /// put the executables too.
    public static let products: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("sandbox").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug")
    }()

    /// A built executable, or nil when it was not built (run `swift build --build-tests` first).
    public static func executable(_ name: String) -> URL? {
        let url = products.appendingPathComponent(name)
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }
}
