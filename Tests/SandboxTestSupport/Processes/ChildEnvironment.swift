import Foundation
import Testing

/// The environment a child gets: ours, with `TAPSANDBOX_HOME` at the checkout (as the image sets it
/// to `/app`, so a child in a scratch folder reads this tree's `sandbox-data/` and `openapi/`) and
/// without proxies (only 127.0.0.1 is used).
public func childEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["TAPSANDBOX_HOME"] = Paths.repository.path
    for name in ["http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] {
        environment[name] = nil
    }
    environment["NO_PROXY"] = "127.0.0.1,localhost"
    environment["no_proxy"] = "127.0.0.1,localhost"
    return environment
}

/// The first executable called `name` on `PATH`.
public func onPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// A built executable, or a failed requirement telling how to build it.
public func builtExecutable(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(
        Paths.executable(name),
        "\(name) is not built in \(Paths.products.path); run `swift build --build-tests` first",
        sourceLocation: sourceLocation)
}
