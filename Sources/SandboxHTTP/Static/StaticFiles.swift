import Foundation
import SandboxCrypto
import Synchronization

/// Serves the files of one folder (`web/portal`) to GET and HEAD, with content types and ETags.
///
/// A path with a `..`, `.` or empty-named segment, a backslash or a NUL byte is refused with
/// 404 before the file system is asked; a path that resolves (through a symbolic link) outside
/// the folder is refused as well. A folder answers its `index.html`. Files are read once and
/// kept while their size and modification time stay the same.
///
/// ```swift
/// var router = Router()
/// router.fallback = StaticFiles(root: webFolder.appendingPathComponent("portal"))
/// ```
public struct StaticFiles: Responder {
    private struct Entry: Sendable {
        let modified: Date
        let size: Int
        let body: [UInt8]
        let etag: String
    }

    private final class Cache: Sendable {
        let entries = Mutex<[String: Entry]>([:])
    }

    public let root: URL
    private let rootPath: String
    private let cache = Cache()

    public init(root: URL) {
        self.root = root
        self.rootPath = root.resolvingSymlinksInPath().path
    }

    public func respond(to request: Request) -> Response {
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPError.methodNotAllowed(allowed: ["GET", "HEAD"]).response
        }
        guard let file = resolve(request.path) else { return HTTPError.notFound.response }
        guard let entry = load(file) else { return HTTPError.notFound.response }
        var headers = [("ETag", entry.etag), ("Cache-Control", "no-cache")]
        if let match = request.header("if-none-match"),
            match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == entry.etag || $0 == "*" })
        {
            return Response(status: 304, headers: headers)
        }
        headers.insert(("Content-Type", Self.contentType(of: file)), at: 0)
        return Response(status: 200, headers: headers, body: entry.body)
    }

    /// The file a URL path names inside the root, or nil when the path may not be served.
    func resolve(_ path: String) -> String? {
        // Split at every `/` scalar, as the file system does (a `/` followed by a combining mark is one Character with it).
        let segments = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(Substring.init).dropFirst()
        for segment in segments.dropLast() where segment.isEmpty { return nil }
        for segment in segments where segment == ".." || segment == "." || segment.contains("\\") || segment.contains("\0") {
            return nil
        }
        var candidate = rootPath + "/" + segments.joined(separator: "/")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            candidate = (candidate.hasSuffix("/") ? candidate : candidate + "/") + "index.html"
        }
        // A symbolic link inside the folder may point outside it: compare the real path.
        let real = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
        guard real.hasPrefix(rootPath + "/") else { return nil }
        return real
    }

    private func load(_ path: String) -> Entry? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            (attributes[.type] as? FileAttributeType) == .typeRegular,
            let modified = attributes[.modificationDate] as? Date,
            let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        if let cached = cache.entries.withLock({ $0[path] }), cached.modified == modified, cached.size == size {
            return cached
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let body = [UInt8](data)
        let etag = "\"" + Hex.encode(SHA256.hash(body).prefix(16)) + "\""
        let entry = Entry(modified: modified, size: size, body: body, etag: etag)
        cache.entries.withLock { $0[path] = entry }
        return entry
    }

    static func contentType(of path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        case "yaml", "yml": "application/yaml"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}
