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

/// A folder that exists for one test and is removed after it.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tapsandbox-" + UUID().uuidString)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A loopback port free at the time of asking (for executables that must be told a port).
public func freePort() -> UInt16 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}
