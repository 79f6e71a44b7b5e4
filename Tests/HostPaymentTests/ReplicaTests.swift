import Foundation
import Synchronization
import HostTestSupport
import SandboxTestSupport
import Testing

/// Two `sandbox-host` processes of one region on one PostgreSQL database (a throw-away server of
/// the tests'), as a team's shared sandbox runs replicas behind a load balancer: what a client
/// sends to either is one host's answer.
@Suite(
    "Replicas: two host processes on one PostgreSQL database", .serialized, .blocksThreads,
    .disabled(if: InProcessHost.onPostgres, "runs once, in the main pass: it starts its own PostgreSQL hosts"))
struct ReplicaTests {
    /// Both replicas of EU, each with its own data folder (snapshots, locks) and the same database.
    final class Pair {
        let database: String
        let processes: [SandboxHostProcess]
        let hosts: [Host]
        /// The replicas' data folders, removed with the pair.
        let folders = [TemporaryDirectory(), TemporaryDirectory()]

        init(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let database = try PostgresServer.shared().newDatabaseURL()
            let fixture = try MerchantsFile.load().region("EU")
            let facts = try RegionFacts.load("EU")
            let processes = try folders.map { folder in
                try SandboxHostProcess(
                    region: "EU", dataDirectory: folder.url, arguments: ["--access-log", "off", "--database", database],
                    sourceLocation: sourceLocation)
            }
            self.database = database
            self.processes = processes
            hosts = processes.map { Host(service: Service(name: "EU", baseURL: $0.url), fixture: fixture, facts: facts) }
        }

        /// The same request sent to both replicas at once (a thread each); the answers in replica order.
        func both(_ method: String, _ path: String, bearer: String, json: String, headers: [(String, String)] = []) -> [HTTPReply] {
            let services = hosts.map(\.service)
            let answers = Mutex<[Int: HTTPReply]>([:])
            DispatchQueue.concurrentPerform(iterations: services.count) { index in
                let reply = services[index].call(method, path, bearer: bearer, raw: json, headers: [("Content-Type", "application/json")] + headers)
                answers.withLock { $0[index] = reply }
            }
            return answers.withLock { all in services.indices.map { all[$0]! } }
        }
    }

    private static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("the same Idempotency-Key sent to both at once: one sale and one replay of it")
    func idempotencyKeyAcrossReplicas() async throws {
        let pair = try Pair()
        let till = try await Till.open(pair.hosts[0], try pair.hosts[0].counter())
        for round in 0..<5 {
            let payload = try await till.tap("visa", amount: 1250)
            let answers = pair.both(
                "POST", "/terminal/v1/transactions/sale", bearer: till.token,
                json: Self.json(["currency": till.currency, "requestedAmount": 1250, "cardPayload": payload]),
                headers: [("Idempotency-Key", "k\(round)")])
            #expect(answers.allSatisfy { $0.status == 201 && $0.string("transactionStatus") == "CLEARED" }, "round \(round): \(answers)")
            #expect(Set(answers.compactMap(\.transactionId)).count == 1, "round \(round): two transactions for one key: \(answers)")
            #expect(answers.filter { $0.header("Idempotent-Replayed") == "true" }.count == 1, "round \(round): not one replay: \(answers.map(\.headers))")
        }
        #expect(await till.count("after five keys sent twice each") == 5)
    }

    @Test("two sales on one terminal at once, one through each replica: one waits for its card, the other is terminal_busy")
    func terminalBusyAcrossReplicas() async throws {
        let pair = try Pair()
        let till = try await Till.open(pair.hosts[0], try pair.hosts[0].counter())
        for round in 0..<5 {
            let answers = pair.both(
                "POST", "/terminal/v1/transactions/sale", bearer: till.token,
                json: Self.json(["currency": till.currency, "requestedAmount": 1000 + round]))
            let waiting = answers.filter { $0.status == 201 && $0.string("transactionStatus") == "NEW" }
            #expect(waiting.count == 1, "round \(round): \(answers)")
            #expect(answers.filter { $0.status == 409 && $0.errorCode == "terminal_busy" }.count == 1, "round \(round): \(answers)")
            // The waiting sale is cancelled, so the next round finds the terminal free.
            let id = try #require(waiting.first?.transactionId)
            expectTransaction(await till.card(id, outcome: "cancelled"), 200, "USER_CANCELLED", "round \(round): close \(id)")
        }
    }

    @Test("a clock moved through one replica is in force on the other when the move's answer comes")
    func clockAcrossReplicas() async throws {
        let pair = try Pair()
        for (step, hours) in [1, 5, 24].enumerated() {
            let mover = pair.hosts[step % 2].service, other = pair.hosts[(step + 1) % 2].service
            let before = try #require(await other.call("GET", "/_sandbox/clock")["skewSeconds"] as? Double)
            let moved = expectReply(await mover.call("POST", "/_sandbox/clock", body: ["advanceSeconds": hours * 3600]), 200, nil, "advance \(hours) h")
            let answer = await other.call("GET", "/_sandbox/clock")
            let after = try #require(answer["skewSeconds"] as? Double)
            #expect(
                after - before >= Double(hours * 3600) - 1,
                "the other replica's clock moved \(after - before) s, not \(hours) h: \(moved) then \(answer); \(pair.processes.map(\.output))")
        }
        expectReply(await pair.hosts[0].service.call("POST", "/_sandbox/clock", body: ["realTime": true]), 200, nil, "back to real time")
        #expect(try #require(await pair.hosts[1].service.call("GET", "/_sandbox/clock")["skewSeconds"] as? Double) == 0)
    }

    @Test("wrong back-office codes from one address spread over both replicas are throttled as one: 20, then 429 on either")
    func throttleAcrossReplicas() async throws {
        let pair = try Pair()
        var wrong = 0
        var stopped: HTTPReply?
        for n in 0..<100 {
            let answer = await pair.hosts[n % 2].service.call(
                "POST", "/terminal/v1/registrations/verify-code", body: ["code": String(format: "EU-%06d", 100_000 + n)])
            if answer.status == 429 {
                stopped = answer
                break
            }
            #expect(answer.status == 200 && answer.string("reason") == "backoffice_code_invalid", "guess \(n): \(answer)")
            wrong += 1
        }
        #expect(wrong == 20, "wrong codes answered before the throttle, over both replicas: \(wrong)")
        #expect(stopped?.errorCode == "too_many_attempts", "\(String(describing: stopped))")
        let other = await pair.hosts[(wrong + 1) % 2].service.call(
            "POST", "/terminal/v1/registrations/verify-code", body: ["code": "EU-999999"])
        #expect(other.status == 429, "the other replica lets the address guess on: \(other)")
    }

    @Test("a fault set through one replica takes the other's requests, and a counted fault counts the requests of both")
    func faultsAcrossReplicas() async throws {
        let pair = try Pair()
        let set = expectReply(
            await pair.hosts[0].service.call(
                "POST", "/_sandbox/faults", body: ["match": ["path": "/v1/environment"], "count": 3, "action": "status", "status": 503]),
            201, nil, "a fault through replica 0")
        let id = try #require(set.string("id"))
        #expect(await pair.hosts[1].service.call("GET", "/_sandbox/faults").objects("faults").map { $0["id"] as? String } == [id])
        // Five requests alternating over the replicas: the first three are the fault's, whichever replica answers.
        var statuses: [Int] = []
        for n in 0..<5 { statuses.append(await pair.hosts[(n + 1) % 2].service.call("GET", "/v1/environment").status) }
        #expect(statuses == [503, 503, 503, 200, 200], "\(statuses)")
        #expect(await pair.hosts[0].service.call("GET", "/_sandbox/faults").objects("faults").isEmpty, "the spent fault is gone on both")
        expectReply(
            await pair.hosts[1].service.call("POST", "/_sandbox/faults", body: ["match": ["path": "/v1/environment"], "seconds": 600, "action": "status", "status": 500]),
            201, nil, "a ten-minute fault through replica 1")
        expectReply(await pair.hosts[0].service.call("DELETE", "/_sandbox/faults"), 204, nil, "cleared through replica 0")
        #expect(await pair.hosts[1].service.call("GET", "/v1/environment").status == 200, "the other replica still applies a cleared fault")
    }

    @Test("the request journal read through one replica lists the requests the other answered, with each one's detail; bodies kept on both once asked through one")
    func journalAcrossReplicas() async throws {
        let pair = try Pair()
        let key = pair.hosts[0].fixture.backOfficeKey
        let refused = await pair.hosts[0].service.call("GET", "/v1/environment/nowhere-\(UUID().uuidString.prefix(8))")
        let id = try #require(refused.header("X-Request-Id"), "\(refused.headers)")
        // Each replica writes its entries beside its answers: they are there a moment later.
        let listed = await eventually(10) {
            await pair.hosts[1].service.call("GET", "/backoffice/v1/requests?limit=50", bearer: key).objects("requests")
                .contains { $0["requestId"] as? String == id }
        }
        #expect(listed, "replica 0's request \(id) is not listed through replica 1")
        let detail = await pair.hosts[1].service.call("GET", "/backoffice/v1/requests/\(id)", bearer: key)
        #expect(detail.status == 200 && detail.string("requestId") == id, "\(detail)")
        #expect(detail["requestBody"] == nil || detail["requestBody"] is NSNull, "no bodies kept yet: \(detail)")

        // Bodies kept from now on, said through replica 1: the next request through replica 0 keeps its own.
        expectReply(
            await pair.hosts[1].service.call("PUT", "/backoffice/v1/requests/capture", bearer: key, body: ["bodies": true]), 200, nil,
            "capture bodies through replica 1")
        let posted = await pair.hosts[0].service.call("POST", "/backoffice/v1/challenges/confirm", bearer: key, body: ["challengeCode": "NOPE-1"])
        let postedId = try #require(posted.header("X-Request-Id"), "\(posted.headers)")
        // Replica 0's entry is written a moment after its answer.
        let kept = await eventuallyValue { () async -> HTTPReply? in
            let reply = await pair.hosts[1].service.call("GET", "/backoffice/v1/requests/\(postedId)", bearer: key)
            return reply.status == 200 ? reply : nil
        }
        #expect(kept?.string("requestBody")?.contains("NOPE-1") == true, "replica 0 kept no body: \(String(describing: kept))")
    }
}
