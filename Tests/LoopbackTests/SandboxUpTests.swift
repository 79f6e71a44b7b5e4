import Foundation
import SandboxCore
import SandboxTestSupport
import Testing

/// `sandbox up` as a person runs it: the table, endpoints.json, every URL answering, Ctrl-C.
@Suite("sandbox up", .blocksThreads)
struct SandboxUpTests {
    @Test("prints its table, writes endpoints.json, serves every URL in it, and stops on SIGTERM")
    func upServesEveryEndpointAndStops() throws {
        let catalogue = try loadCatalogue()
        let data = TemporaryDirectory()
        let (child, base) = try startSandboxUp(dataDirectory: data.url)

        // The table: one row per region, the portal and the wallet, each with its URL.
        let table = child.stdout
        let ports = catalogue.ports
        for region in catalogue.regions {
            let port = base + ports.offset(of: region.id)!
            #expect(table.contains(region.id) && table.contains("http://127.0.0.1:\(port)"), "table lacks \(region.id):\n\(table)")
        }
        #expect(table.contains("portal") && table.contains("http://127.0.0.1:\(base + ports.portal)"))
        #expect(table.contains("wallet") && table.contains("http://127.0.0.1:\(base + ports.wallet)"))
        #expect(table.contains(data.file("endpoints.json").path))

        // endpoints.json names every service, in the documented layout.
        let file = try Data(contentsOf: data.file("endpoints.json"))
        let endpoints = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        let environments = try #require(endpoints["environments"] as? [String: String], "endpoints.json: \(endpoints)")
        #expect(Set(environments.keys) == Set(catalogue.regions.map(\.id)))
        for region in catalogue.regions {
            #expect(environments[region.id] == "http://127.0.0.1:\(base + ports.offset(of: region.id)!)")
        }
        // Worldline's regions first, then the portal, the wallet and the inbox, then the other vendors'.
        #expect(ports.offset(of: "MBANK") == 8 && ports.portal == 9 && ports.wallet == 10 && ports.inbox == 11 && ports.offset(of: "MONEI") == 12)
        let portal = try #require(endpoints["portal"] as? String)
        let wallet = try #require(endpoints["wallet"] as? String)
        #expect(portal == "http://127.0.0.1:\(base + ports.portal)")
        #expect(wallet == "http://127.0.0.1:\(base + ports.wallet)")
        #expect(endpoints["webhooks"] as? String == "http://127.0.0.1:\(base + ports.inbox)")

        // Every host answers as its own region.
        for region in catalogue.regions {
            let url = try #require(environments[region.id])
            let health = try get(url + "/healthz")
            #expect(health.status == 200, "\(url)/healthz: \(health.status) \(health.body)")
            #expect(health.json?["status"] as? String == "ok", "\(url)/healthz: \(health.body)")
            #expect(health.json?["region"] as? String == region.id)
            let environment = try get(url + "/v1/environment")
            #expect(environment.status == 200)
            #expect(environment.json?["id"] as? String == region.id, "\(url)/v1/environment: \(environment.body)")
        }

        // The portal and the wallet serve their pages and the /healthz the compose healthchecks call.
        for url in [portal, wallet] {
            let page = try get(url + "/")
            #expect(page.status == 200, "\(url)/: \(page.status)")
            #expect(page.contentType.hasPrefix("text/html"), "\(url)/: \(page.contentType)")
            #expect(page.body.lowercased().contains("<html"))
            let health = try get(url + "/healthz")
            #expect(health.status == 200 && health.json?["status"] as? String == "ok", "\(url)/healthz: \(health.body)")
        }
        // The portal drives the hosts it was started with, and reaches every one of them.
        let listed = try get(portal + "/api/environments").json?["environments"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["region"] as? String } == catalogue.regions.map(\.id))
        for entry in listed {
            let region = entry["region"] as? String ?? "?"
            #expect(entry["url"] as? String == environments[region], "\(entry)")
            #expect(entry["status"] as? String == "up", "the portal cannot reach \(region): \(entry)")
        }

        // Ctrl-C or `docker stop`: an orderly stop, exit 0, every port released.
        child.signal(SIGTERM)
        let finished = child.finish(within: 8)
        #expect(finished.exited && finished.status == 0 && !finished.timedOut, "after SIGTERM: \(finished)")
        for offset in 0..<(catalogue.regions.count + 3) {
            #expect(!isAccepting(base + offset), "port \(base + offset) still accepts after sandbox up stopped")
        }
        // What it wrote stays for the next start: one database per host and the access log.
        for region in catalogue.regions {
            #expect(FileManager.default.fileExists(atPath: data.file(region.id.lowercased() + ".sqlite").path))
        }
        #expect(FileManager.default.fileExists(atPath: data.file("access.log").path))
    }

    @Test("a port of its range already taken: a clear error and a non-zero exit")
    func upRefusesATakenPort() throws {
        let count = try loadCatalogue().regions.count + 3
        let base = try freeConsecutivePorts(count)
        let blocked = try #require(HeldPort(port: base + 4), "port \(base + 4) was taken meanwhile")
        let data = TemporaryDirectory()
        let finished = try run(
            builtExecutable("sandbox"), ["up", "--base-port", String(base), "--data-dir", data.url.path], seconds: 15)
        #expect(finished.exited && finished.status != 0 && !finished.timedOut, "\(finished)")
        #expect(finished.stderr.contains("cannot listen on 127.0.0.1:\(blocked.port)"), "\(finished)")
        #expect(!finished.stdout.contains("Endpoints:"), "it must not claim to be up: \(finished)")
    }
}
