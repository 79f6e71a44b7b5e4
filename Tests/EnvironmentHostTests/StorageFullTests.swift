@testable import EnvironmentHost
@testable import HostRules
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxStore
import Testing
import SandboxTestSupport

/// A host whose disk is full: a write says so (503 `storage_full` with `Retry-After`, not a bare
/// 500), health says so, and both recover once there is room. The disk is made full with SQLite's
/// own page limit on the host's writer connection, which fails a write exactly as a full disk does
/// (`SQLITE_FULL`).
@Suite struct StorageFullTests {
    let folder = TemporaryDirectory()

    func host() throws -> EnvironmentHost {
        try EnvironmentHostTests.host("EU", clock: SandboxClock(base: { Date(timeIntervalSince1970: 1_790_000_000) }), in: folder.url)
    }

    func register(_ host: EnvironmentHost, _ index: Int) -> Response {
        host.respond(
            to: Request(
                method: "POST", path: "/terminal/v1/registrations", headers: ["content-type": "application/json"],
                body: Array(#"{"deviceId":"full-disk-\#(index)-\#(String(repeating: "x", count: 40))","deviceModel":"iPhone15,2"}"#.utf8)))
    }

    func json(_ response: Response) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    @Test("a full disk: writes get 503 storage_full with Retry-After and health says database full; with room again, both recover")
    func aFullDiskIsSaidAndRecovered() throws {
        let host = try host()
        #expect(register(host, 0).status == 201)
        // No page beyond those the database has now.
        try host.store.write { db in try db.execute("PRAGMA max_page_count = 1") }
        var refused: Response?
        for index in 1...2000 {
            let answer = register(host, index)
            if answer.status != 201 {
                refused = answer
                break
            }
        }
        let full = try #require(refused, "2,000 registrations fit in a database that may not grow")
        #expect(full.status == 503, "\(full.status): \(String(decoding: full.body, as: UTF8.self))")
        #expect((json(full)["error"] as? [String: Any])?["code"] as? String == "storage_full")
        #expect(full.header("Retry-After") == "30")
        let health = host.respond(to: Request(method: "GET", path: "/healthz"))
        #expect(health.status == 503 && json(health)["database"] as? String == "full", "\(json(health))")

        try host.store.write { db in try db.execute("PRAGMA max_page_count = 1073741823") }
        #expect(register(host, 9999).status == 201, "a write with room again")
        let recovered = host.respond(to: Request(method: "GET", path: "/healthz"))
        #expect(recovered.status == 200 && json(recovered)["database"] as? String == "ok", "\(json(recovered))")
    }
}
