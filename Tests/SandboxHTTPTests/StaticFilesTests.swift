import Foundation
import SandboxHTTP
import Testing
import SandboxTestSupport

@Suite struct StaticFilesTests {
    let folder = TemporaryDirectory()
    let files: StaticFiles

    init() throws {
        let site = folder.file("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try Data("<h1>home</h1>".utf8).write(to: site.appendingPathComponent("index.html"))
        try Data("body{}".utf8).write(to: site.appendingPathComponent("style.css"))
        try Data("<svg/>".utf8).write(to: site.appendingPathComponent("docs/qr.svg"))
        try Data("secret".utf8).write(to: folder.file("secret.txt"))
        // A name that starts with a combining mark: `/` and that mark are one Swift Character.
        try Data("secret".utf8).write(to: folder.file("\u{0301}secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: site.appendingPathComponent("escape.txt"), withDestinationURL: folder.file("secret.txt"))
        files = StaticFiles(root: site)
    }

    func get(_ path: String, headers: [String: String] = [:]) -> Response {
        files.respond(to: Request(method: "GET", path: path, headers: headers))
    }

    @Test func servesFilesWithTheirContentType() {
        #expect(get("/").header("Content-Type") == "text/html; charset=utf-8")
        #expect(String(decoding: get("/").body, as: UTF8.self) == "<h1>home</h1>")
        #expect(get("/style.css").header("Content-Type") == "text/css; charset=utf-8")
        #expect(get("/docs/qr.svg").header("Content-Type") == "image/svg+xml")
        #expect(get("/missing.html").status == 404)
    }

    @Test func etagAnswers304WhileTheFileIsUnchanged() throws {
        let first = get("/style.css")
        let etag = try #require(first.header("ETag"))
        #expect(get("/style.css", headers: ["if-none-match": etag]).status == 304)
        #expect(get("/style.css", headers: ["if-none-match": "\"other\""]).status == 200)
        // A changed file gets a new tag and its new bytes.
        try Data("body{color:red}".utf8).write(to: folder.file("site/style.css"))
        let changed = get("/style.css", headers: ["if-none-match": etag])
        #expect(changed.status == 200)
        #expect(changed.header("ETag") != etag)
        #expect(String(decoding: changed.body, as: UTF8.self) == "body{color:red}")
    }

    @Test(arguments: [
        "/../secret.txt", "/docs/../../secret.txt", "/./index.html", "/docs//qr.svg", "/..\\secret.txt",
        "/escape.txt", "/index.html\0.png", "/../\u{0301}secret.txt",
    ])
    func refusesPathsOutsideTheFolder(path: String) {
        let response = get(path)
        #expect(response.status == 404)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("secret"))
    }

    @Test func onlyGetAndHead() {
        #expect(files.respond(to: Request(method: "POST", path: "/index.html")).status == 405)
        #expect(files.respond(to: Request(method: "HEAD", path: "/index.html")).status == 200)
    }
}
