import Foundation
import SandboxCore
import SandboxTestSupport
import Testing

// Helpers for running the real, built executables as a user would.

/// The executables `Package.swift` declares as products (`.executable(name: "…")`).
///
/// Read from the manifest's text, which is quicker than `swift package dump-package` and is
/// what a contributor edits: a compose service may only run one of these.
let packageExecutables: Set<String> = {
    let manifest = (try? String(contentsOf: Paths.repository.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    let pattern = try! NSRegularExpression(pattern: #"\.executable\(\s*name:\s*"([^"]+)""#)
    let range = NSRange(manifest.startIndex..., in: manifest)
    return Set(pattern.matches(in: manifest, range: range).map { String(manifest[Range($0.range(at: 1), in: manifest)!]) })
}()

/// The catalogue the executables read (the checkout's `sandbox-data/environments.json`).
func loadCatalogue() throws -> EnvironmentCatalogue {
    try EnvironmentCatalogue.load(contentsOf: Paths.sandboxData.appendingPathComponent("environments.json"))
}

/// Runs a built executable to its end as the image would (``childEnvironment()``), killed after `seconds`.
func run(_ executable: URL, _ arguments: [String], seconds: Double = 10) throws -> ProcessOutput {
    try ChildProcess(executable, arguments).finish(within: seconds)
}

/// `GET url` with curl (the tool the compose healthchecks use): status, content type and body.
struct Fetched {
    var status: Int
    var contentType: String
    var body: String

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
}

func get(_ url: String) throws -> Fetched {
    try fetch("GET", url)
}

/// Any method with curl, with extra headers and a JSON body when `body` is given (a write declares
/// JSON either way).
func fetch(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) throws -> Fetched {
    let curl = try #require(
        ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) },
        "curl is needed; run scripts/setup")
    var arguments = ["-sS", "-m", "5", "-w", "\n%{http_code} %{content_type}", "-X", method]
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
    // Body or not, a write declares JSON, as every service requires (SiteGate).
    if body != nil || (method != "GET" && method != "HEAD"), headers.keys.allSatisfy({ $0.lowercased() != "content-type" }) {
        arguments += ["-H", "Content-Type: application/json"]
    }
    if let body { arguments += ["--data-binary", body] }
    let result = try run(URL(fileURLWithPath: curl), arguments + [url], seconds: 10)
    guard result.exited, result.status == 0 else {
        throw HarnessError("curl \(url): \(result)")
    }
    var lines = result.stdout.components(separatedBy: "\n")
    let trailer = lines.removeLast().split(separator: " ", maxSplits: 1).map(String.init)
    return Fetched(
        status: Int(trailer.first ?? "") ?? 0, contentType: trailer.count > 1 ? trailer[1] : "",
        body: lines.joined(separator: "\n"))
}

extension [String: Any] {
    /// `object["a"]["b"]` for nested JSON objects.
    subscript(path path: String...) -> Any? {
        var value: Any? = self
        for key in path { value = (value as? [String: Any])?[key] }
        return value
    }
}
