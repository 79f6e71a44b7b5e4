import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// `/_sandbox/snapshots` on every service of a sandbox: save, change everything, restore, and
/// every answer is what it was, byte for byte.
@Suite("Snapshots: a sandbox's state saved and brought back")
struct SnapshotTests {
    /// One GET whose answer a snapshot must bring back.
    struct Read {
        let service: Service
        let path: String
        let bearer: String?
    }

    static func answers(_ reads: [Read]) async -> [String] {
        var answers: [String] = []
        for read in reads {
            let reply = await read.service.call("GET", read.path, bearer: read.bearer)
            answers.append("\(read.service.name) \(read.path) \(reply.status) \(reply.text)")
        }
        return answers
    }

    @Test("save, change everything, restore: history, terminal state, webhooks log, clock, faults, wallet orders and inbox answer as before, byte for byte")
    func roundTrip() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            _ = try await till.cleared(amount: 1000, "a sale before the snapshot")
            await host.advanceClock(120, "the clock before the snapshot")
            let wallet = Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url)
            let inbox = Service(name: "webhooks", baseURL: sandbox.sandbox.inbox.url)
            expectReply(
                await host.service.call(
                    "POST", "/_sandbox/faults", body: ["match": ["path": "/v1/environment"], "count": 5, "action": "status", "status": 503]),
                201, nil, "a fault before the snapshot")
            let key = host.fixture.backOfficeKey
            let reads = [
                Read(service: host.service, path: "/terminal/v1/transactions", bearer: till.token),
                Read(service: host.service, path: "/terminal/v1/transactions/count", bearer: till.token),
                Read(service: host.service, path: "/backoffice/v1/terminals/\(till.id)", bearer: key),
                Read(service: host.service, path: "/backoffice/v1/merchants", bearer: key),
                Read(service: host.service, path: "/backoffice/v1/transactions", bearer: key),
                Read(service: host.service, path: "/backoffice/v1/webhooks/events", bearer: key),
                Read(service: host.service, path: "/_sandbox/clock", bearer: nil),
                Read(service: host.service, path: "/_sandbox/faults", bearer: nil),
                Read(service: wallet, path: "/api/orders", bearer: nil),
                Read(service: inbox, path: "/api/events", bearer: nil),
            ]
            // The sale's webhooks settle first (delivered, in the inbox), so the state stands still.
            let events = await eventuallyValue { () async -> Int? in
                let sent = await host.service.call("GET", "/backoffice/v1/webhooks/events", bearer: key).array("events")?.count ?? 0
                let received = await inbox.call("GET", "/api/events").array("events")?.count ?? -1
                let pending = await host.service.call("GET", "/backoffice/v1/webhooks/events", bearer: key).text.contains("\"pending\"")
                return sent > 0 && sent == received && !pending ? sent : nil
            }
            #expect(events != nil, "the sale's webhooks never settled in the inbox")
            let before = await Self.answers(reads)

            for service in [host.service, wallet, inbox] {
                let saved = expectReply(await service.call("POST", "/_sandbox/snapshots", body: ["name": "after-sale"]), 201, nil, "save on \(service.name)")
                #expect(saved.string("name") == "after-sale" && (saved["bytes"] as? Int ?? 0) > 0, "\(saved)")
            }
            let listed = await host.service.call("GET", "/_sandbox/snapshots")
            #expect(listed.array("snapshots")?.count == 1, "\(listed)")

            // Change everything the reads show.
            _ = try await till.cleared(amount: 2500, "a sale after the snapshot")
            await host.advanceClock(3600, "the clock after the snapshot")
            expectReply(await host.service.call("DELETE", "/_sandbox/faults"), 204, nil, "faults cleared")
            expectReply(await wallet.call("POST", "/_sandbox/clock", body: ["advanceSeconds": 60]), 200, nil, "the wallet's clock")
            #expect(await wallet.call("GET", "/_sandbox/clock")["skewSeconds"] as? Int == 60)
            expectReply(await inbox.call("DELETE", "/api/events"), 204, nil, "the inbox emptied")
            #expect(await Self.answers(reads) != before)

            for service in [host.service, wallet, inbox] {
                expectReply(await service.call("POST", "/_sandbox/snapshots/after-sale/restore"), 200, nil, "restore on \(service.name)")
            }
            let after = await Self.answers(reads)
            for (was, now) in zip(before, after) { #expect(was == now) }
            // The wallet's clock runs in real time here: its skew comes back, not its `now`.
            #expect(await wallet.call("GET", "/_sandbox/clock")["skewSeconds"] as? Int == 0, "the wallet's clock skew after the restore")

            // The restored device goes on: the sequence of transactions continues from the snapshot's.
            _ = try await till.cleared(amount: 700, "a sale after the restore")
            #expect(await till.count("after the restore") == 2)
        }
    }

    @Test("names: refused when they could leave the folder, 404 for none saved; delete removes a snapshot")
    func namesAndDeletion() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU").service
            for name in ["../escape", ".hidden", "", "a/b", String(repeating: "x", count: 65)] {
                expectReply(await host.call("POST", "/_sandbox/snapshots", body: ["name": name]), 400, "invalid_request", "name \(name)")
            }
            expectReply(await host.call("POST", "/_sandbox/snapshots/none/restore"), 404, "snapshot_not_found", "restore of nothing")
            expectReply(await host.call("POST", "/_sandbox/snapshots/.hidden/restore"), 404, "snapshot_not_found", "a name that is no snapshot's")
            expectReply(await host.call("POST", "/_sandbox/snapshots/..%2Fstate/restore"), 404, nil, "a path outside")
            expectReply(await host.call("POST", "/_sandbox/snapshots", body: ["name": "one"]), 201, nil, "save")
            expectReply(await host.call("POST", "/_sandbox/snapshots", body: ["name": "one"]), 201, nil, "saved again: replaced")
            expectReply(await host.call("DELETE", "/_sandbox/snapshots/one"), 204, nil, "delete")
            expectReply(await host.call("DELETE", "/_sandbox/snapshots/one"), 404, "snapshot_not_found", "deleted twice")
            #expect(await host.call("GET", "/_sandbox/snapshots").array("snapshots")?.isEmpty == true)
            #expect(!FileManager.default.fileExists(atPath: sandbox.dataDirectory.appendingPathComponent("snapshots/one").path))
        }
    }

    @Test("a snapshot another region's host saved is refused (409 snapshot_mismatch) and nothing changes")
    func anotherRegionIsRefused() async throws {
        try await withSandbox(regions: ["EU", "ANZ"]) { sandbox in
            let eu = try sandbox.host("EU"), anz = try sandbox.host("ANZ")
            expectReply(await anz.service.call("POST", "/_sandbox/snapshots", body: ["name": "anz"]), 201, nil, "save on ANZ")
            let folder = sandbox.dataDirectory.appendingPathComponent("snapshots/anz")
            try FileManager.default.copyItem(at: folder.appendingPathComponent("anz.sqlite"), to: folder.appendingPathComponent("eu.sqlite"))
            let merchants = await eu.service.call("GET", "/backoffice/v1/merchants", bearer: eu.fixture.backOfficeKey).text
            expectReply(await eu.service.call("POST", "/_sandbox/snapshots/anz/restore"), 409, "snapshot_mismatch", "ANZ's rows on EU")
            #expect(await eu.service.call("GET", "/backoffice/v1/merchants", bearer: eu.fixture.backOfficeKey).text == merchants)
        }
    }

    @Test("a restore under load: sales acknowledged after it stay, those acknowledged before it started are gone, and every request meanwhile is answered whole")
    func restoreUnderLoad() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            expectReply(await host.service.call("POST", "/_sandbox/snapshots", body: ["name": "empty"]), 201, nil, "the snapshot")
            let service = host.service, token = till.token

            // The restore starts once three sales went through, while the sales and a reader go on.
            let (started, go) = AsyncStream.makeStream(of: Void.self)
            let restore = Task { () -> (ContinuousClock.Instant, ContinuousClock.Instant, Int) in
                for await _ in started { break }
                let begin = ContinuousClock.now
                let reply = await service.call("POST", "/_sandbox/snapshots/empty/restore")
                return (begin, ContinuousClock.now, reply.status)
            }
            // Stopped by a flag, not by cancelling: a cancelled request has no answer to check.
            final class Flag: @unchecked Sendable {
                private let lock = NSLock()
                private var raised = false
                var isRaised: Bool { lock.withLock { raised } }
                func raise() { lock.withLock { raised = true } }
            }
            let stop = Flag()
            let reader = Task { () -> [Int] in
                var statuses: [Int] = []
                while !stop.isRaised && statuses.count < 5_000 {
                    statuses.append(await service.call("GET", "/terminal/v1/transactions/count", bearer: token).status)
                }
                return statuses
            }
            var sales: [(id: String, sent: ContinuousClock.Instant, acknowledged: ContinuousClock.Instant)] = []
            for index in 0..<30 {
                let sent = ContinuousClock.now
                let id = try await till.cleared(amount: 100 + index, "sale \(index)")
                sales.append((id, sent, ContinuousClock.now))
                if index == 2 { go.yield() }
            }
            go.finish()
            let (begin, end, status) = await restore.value
            stop.raise()
            let statuses = await reader.value
            #expect(status == 200, "the restore")
            #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == 200 }, "every read during the sales and the restore: \(Set(statuses))")

            let listed = expectReply(await service.call("GET", "/terminal/v1/transactions?itemsPerPage=100", bearer: token), 200, nil, "history")
            let kept = Set((listed.array("items") as? [[String: Any]] ?? []).compactMap { $0["transactionId"] as? String })
            let after = sales.filter { $0.sent > end }
            let before = sales.filter { $0.acknowledged < begin }
            #expect(!after.isEmpty && !before.isEmpty, "sales on both sides of the restore")
            #expect(after.allSatisfy { kept.contains($0.id) }, "a sale acknowledged after the restore was lost")
            #expect(before.allSatisfy { !kept.contains($0.id) }, "a sale of before the restore came back")
            #expect(await till.count("at the end") == kept.count)
        }
    }

    @Test("the portal's whole-sandbox calls: one snapshot of every service, refused whole when a service lacks its part, one reset")
    func portalWholeSandbox() async throws {
        try await withSandbox { sandbox in
            let portal = Service(name: "portal", baseURL: sandbox.sandbox.portal.url)
            let wallet = Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url)
            let host = try sandbox.host("EU")
            let services = sandbox.sandbox.hosts.count + 2
            let saved = expectReply(await portal.call("POST", "/api/sandbox/snapshots", body: ["name": "all"]), 201, nil, "save")
            #expect(saved["services"] as? Int == services, "\(saved)")
            let listed = await portal.call("GET", "/api/sandbox/snapshots")
            #expect(listed["services"] as? Int == services && listed.text.contains(#""name":"all""#), "\(listed)")
            expectReply(await portal.call("POST", "/api/sandbox/snapshots", body: ["name": "../x"]), 400, "invalid_request", "a bad name")
            expectReply(await portal.call("POST", "/api/sandbox/snapshots/none/restore"), 404, "snapshot_not_found", "nothing of that name")

            // A snapshot the wallet lost its part of is refused whole: the host's clock stays moved.
            await host.advanceClock(60, "after the snapshot")
            expectReply(await wallet.call("DELETE", "/_sandbox/snapshots/all"), 204, nil, "the wallet's part gone")
            let refused = expectReply(await portal.call("POST", "/api/sandbox/snapshots/all/restore"), 409, "snapshot_mismatch", "incomplete")
            #expect(refused.errorMessage?.contains("wallet") == true, "\(refused)")
            #expect(await host.service.call("GET", "/_sandbox/clock")["skewSeconds"] as? Int == 60, "nothing was restored")
            expectReply(await portal.call("DELETE", "/api/sandbox/snapshots/all"), 204, nil, "deleted where it is")
            #expect(await portal.call("GET", "/api/sandbox/snapshots").array("snapshots")?.isEmpty == true)

            // One reset: the region's device is gone with the rest.
            let till = try await Till.open(host, try host.counter())
            expectReply(await portal.call("POST", "/api/sandbox/reset"), 204, nil, "reset everything")
            #expect(await host.service.call("GET", "/terminal/v1/transactions/count", bearer: till.token).status == 401)
        }
    }
}
