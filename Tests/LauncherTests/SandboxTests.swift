import EnvironmentHost
import Foundation
import Launcher
import SandboxCore
import SandboxHTTP
import SandboxWire
import SandboxTestSupport
import Testing

/// The checkout's folders, found and checked as the executables do with explicit paths.
func checkoutResources() throws -> Resources {
    let options = try #require(
        try HostCommand.description.parse([
            "--sandbox-data", Paths.sandboxData.path, "--web", Paths.web.path, "--openapi", Paths.openAPI.path,
        ]))
    return try Resources.locate(options)
}

func sandboxConfiguration(basePort: Int, dataDirectory: URL) throws -> Sandbox.Configuration {
    Sandbox.Configuration(
        resources: try checkoutResources(), basePort: basePort, server: ServerConfiguration(drainSeconds: 0.5),
        dataDirectory: dataDirectory, flavour: .sandbox, accessLog: nil)
}

/// `GET path` on 127.0.0.1:`port`, over a fresh connection.
func get(_ port: UInt16, _ path: String) throws -> RawConnection.Response {
    let connection = try RawConnection(port: port, timeoutSeconds: 5)
    try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
    return try connection.readResponse()
}

func json(_ response: RawConnection.Response) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
}

@Suite("Sandbox (sandbox up in process)")
struct SandboxTests {
    @Test("starts every host, the portal and the wallet; endpoints.json and the table name them all; stop() stops them")
    func startWriteAndStop() throws {
        let directory = TemporaryDirectory()
        let configuration = try sandboxConfiguration(basePort: 0, dataDirectory: directory.file("state"))
        let catalogue = configuration.resources.catalogue
        let sandbox = try Sandbox.start(configuration: configuration)
        var stopped = false
        defer { if !stopped { sandbox.stop() } }

        #expect(sandbox.hosts.map(\.name) == catalogue.regions.map(\.id))
        #expect(configuration.portCount == catalogue.regions.count + 3)
        let ports = sandbox.services.map(\.server.port)
        #expect(Set(ports).count == ports.count, "two services on one port: \(ports)")
        #expect(!ports.contains(0))

        // Every host answers as its own region, from its own database file.
        for (host, region) in zip(sandbox.hosts, catalogue.regions) {
            let health = try get(host.server.port, "/healthz")
            #expect(health.status == 200, "\(region.id): \(health.text)")
            #expect(json(health)?["status"] as? String == "ok")
            #expect(json(health)?["region"] as? String == region.id)
            let environment = try get(host.server.port, "/v1/environment")
            #expect(json(environment)?["id"] as? String == region.id, "\(region.id): \(environment.text)")
            #expect(FileManager.default.fileExists(atPath: directory.file("state/\(region.id.lowercased()).sqlite").path))
        }
        for service in [sandbox.portal, sandbox.wallet] as [any RunningService] {
            let page = try get(service.server.port, "/")
            #expect(page.status == 200, "\(service.name): \(page.status)")
            #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        }
        // The portal is given every host, in catalogue order, and reaches each one.
        let listed = json(try get(sandbox.portal.server.port, "/api/environments"))?["environments"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["region"] as? String } == catalogue.regions.map(\.id))
        for entry in listed {
            let region = entry["region"] as? String ?? "?"
            #expect(entry["url"] as? String == sandbox.endpoints.environments[region], "\(entry)")
            #expect(entry["status"] as? String == "up", "the portal cannot reach \(region): \(entry)")
        }

        // endpoints.json: the same URLs, readable by tools.
        let file = try sandbox.writeEndpoints()
        #expect(file == directory.file("state/endpoints.json"))
        let written = try JSONDecoder().decode(EndpointsFile.self, from: Data(contentsOf: file))
        #expect(written == sandbox.endpoints)
        #expect(Set(written.environments.keys) == Set(catalogue.regions.map(\.id)))
        #expect(written.portal == "http://127.0.0.1:\(sandbox.portal.server.port)")
        #expect(written.wallet == "http://127.0.0.1:\(sandbox.wallet.server.port)")
        for host in sandbox.hosts {
            #expect(written.environments[host.name] == "http://127.0.0.1:\(host.server.port)")
        }
        // Writing again replaces the file whole.
        try sandbox.writeEndpoints()
        #expect(try JSONDecoder().decode(EndpointsFile.self, from: Data(contentsOf: file)) == sandbox.endpoints)

        // The table: a row per region with its URL and name, the portal and the wallet.
        let table = sandbox.table
        let rows = table.components(separatedBy: "\n")
        #expect(rows.count == catalogue.regions.count + 4, "header, regions, portal, wallet, webhooks:\n\(table)")
        for (host, region) in zip(sandbox.hosts, catalogue.regions) {
            #expect(
                rows.contains { $0.contains(region.id) && $0.contains(host.url) && $0.contains(region.name) },
                "no row for \(region.id):\n\(table)")
        }
        #expect(rows.contains { $0.contains("portal") && $0.contains(sandbox.portal.url) })
        #expect(rows.contains { $0.contains("wallet") && $0.contains(sandbox.wallet.url) })
        #expect(rows.contains { $0.contains("webhooks") && $0.contains(sandbox.inbox.url) })

        sandbox.stop()
        stopped = true
        for port in ports {
            #expect(!isAccepting(port), "port \(port) still accepts after stop()")
            #expect(throws: (any Error).self) { try get(port, "/healthz") }
        }
    }

    @Test("with a base port, Worldline region i listens on base + i, then the portal, the wallet, the inbox, then MONEI, PAGBANK and GEOPAGOS")
    func layout() throws {
        let directory = TemporaryDirectory()
        var sandbox: Sandbox?
        var base = 0
        let count = try sandboxConfiguration(basePort: 0, dataDirectory: directory.url).portCount
        for _ in 0..<3 where sandbox == nil {
            base = try freeConsecutivePorts(count)
            sandbox = try? Sandbox.start(configuration: sandboxConfiguration(basePort: base, dataDirectory: directory.url))
        }
        let started = try #require(sandbox)
        defer { started.stop() }
        let worldline = started.hosts.filter { $0.configuration.region.vendor == .worldline }
        #expect(worldline.map { Int($0.server.port) } == Array(base..<(base + 9)))
        #expect(Int(started.portal.server.port) == base + 9)
        #expect(Int(started.wallet.server.port) == base + 10)
        #expect(Int(started.inbox.server.port) == base + 11)
        #expect(started.hosts.filter { $0.configuration.region.vendor == .monei }.map { Int($0.server.port) } == [base + 12])
        #expect(started.hosts.filter { $0.configuration.region.vendor == .pagbank }.map { Int($0.server.port) } == [base + 13])
        #expect(started.hosts.filter { $0.configuration.region.vendor == .geopagos }.map { Int($0.server.port) } == [base + 14])
        #expect(count == 15)
    }

    @Test("when one port is taken, start fails with that port and stops the services it had started")
    func startFailsCleanly() throws {
        let directory = TemporaryDirectory()
        let base = try freeConsecutivePorts(11)
        let blocked = try #require(HeldPort(port: base + 3))
        #expect(throws: ServerError.cannotListen("127.0.0.1", UInt16(base + 3))) {
            try Sandbox.start(configuration: sandboxConfiguration(basePort: base, dataDirectory: directory.url))
        }
        withExtendedLifetime(blocked) {}
        for offset in 0..<3 {
            #expect(!isAccepting(UInt16(base + offset)), "port \(base + offset) was left listening")
        }
    }
}

@Suite("Sandbox: only the regions named")
struct SandboxRegionsTests {
    @Test("regions EU and MBANK: only their hosts run and have databases; endpoints.json, the portal and the wallet know only them")
    func onlyTheRegionsNamed() throws {
        let directory = TemporaryDirectory()
        var configuration = try sandboxConfiguration(basePort: 0, dataDirectory: directory.file("state"))
        configuration.regions = ["MBANK", "EU"]
        let sandbox = try Sandbox.start(configuration: configuration)
        defer { sandbox.stop() }
        #expect(sandbox.hosts.map(\.name) == ["EU", "MBANK"])
        #expect(sandbox.endpoints.environments.keys.sorted() == ["EU", "MBANK"])
        #expect(sandbox.wallet.configuration.hostURLs.keys.sorted() == ["EU", "MBANK"])
        let listed = json(try get(sandbox.portal.server.port, "/api/environments"))?["environments"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["region"] as? String } == ["EU", "MBANK"])
        let databases = try FileManager.default.contentsOfDirectory(atPath: directory.file("state").path).filter { $0.hasSuffix(".sqlite") }
        #expect(databases.sorted() == ["eu.sqlite", "mbank.sqlite", "wallet.sqlite"])
    }

    @Test("a region the catalogue does not have is refused before anything starts")
    func unknownRegion() throws {
        let directory = TemporaryDirectory()
        var configuration = try sandboxConfiguration(basePort: 0, dataDirectory: directory.file("state"))
        configuration.regions = ["EU", "XX"]
        #expect(throws: Sandbox.UnknownRegion.self) { _ = try Sandbox.start(configuration: configuration) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("state/eu.sqlite").path))
    }
}

@Suite("EnvironmentHost database ownership")
struct HostDatabaseTests {
    func configuration(_ region: Region, _ directory: URL) throws -> EnvironmentHost.Configuration {
        // The impostor region of the first test has no fixtures of its own: it borrows EU's.
        let resources = try checkoutResources()
        let fixtures = try #require(resources.merchants.region(region.id.uppercased()))
        return EnvironmentHost.Configuration(
            region: region, flavour: .sandbox, fixtures: fixtures, payments: resources.payments.data(for: region.id.uppercased()),
            server: ServerConfiguration(), dataDirectory: directory,
            openAPIFile: Paths.openAPI.appendingPathComponent("environment-host.yaml"))
    }

    @Test("a database created by one region is refused by another, and reopened by its own")
    func databaseBelongsToOneRegion() throws {
        let catalogue = try checkoutResources().catalogue
        let eu = try #require(catalogue.region("EU"))
        let directory = TemporaryDirectory()

        let first = try EnvironmentHost(configuration: configuration(eu, directory.url))
        #expect(first.configuration.databaseFile == directory.file("eu.sqlite"))

        // Another region pointed at the same file (ids differ only in case, so the file name is the same).
        var impostor = eu
        impostor.id = "eu"
        let other = try configuration(impostor, directory.url)
        #expect(other.databaseFile == first.configuration.databaseFile)
        do {
            _ = try EnvironmentHost(configuration: other)
            Issue.record("a host of region eu opened the database of region EU")
        } catch {
            #expect("\(error)".contains("belongs to region EU, not eu"), "\(error)")
            #expect("\(error)".contains("--data-dir"), "the message should say what to do: \(error)")
        }

        // Its own region opens it again, as after a restart.
        let again = try EnvironmentHost(configuration: configuration(eu, directory.url))
        #expect(again.name == "EU")
    }

    @Test("a database file copied to another region's name is refused")
    func copiedDatabaseIsRefused() throws {
        let catalogue = try checkoutResources().catalogue
        let eu = try #require(catalogue.region("EU"))
        let anz = try #require(catalogue.region("ANZ"))
        let source = TemporaryDirectory()
        do {
            let host = try EnvironmentHost.start(configuration: configuration(eu, source.url))
            host.stop()
        }
        // Someone copies the EU state into a fresh folder under ANZ's name: the database and its
        // WAL (the -shm is an index SQLite rebuilds). The WAL first: should the stopping host fold
        // it into the database meanwhile, it is gone and not needed.
        let target = TemporaryDirectory()
        for file in ["eu.sqlite-wal", "eu.sqlite"] {
            let from = source.file(file)
            do {
                try FileManager.default.copyItem(at: from, to: target.file(file.replacingOccurrences(of: "eu.sqlite", with: "anz.sqlite")))
            } catch where file.hasSuffix("-wal") && !FileManager.default.fileExists(atPath: from.path) {}
        }
        #expect(throws: (any Error).self) { try EnvironmentHost(configuration: configuration(anz, target.url)) }
        do {
            _ = try EnvironmentHost(configuration: configuration(anz, target.url))
        } catch {
            #expect("\(error)".contains("belongs to region EU, not ANZ"), "\(error)")
        }
    }
}

@Suite("Sandbox: the wallet")
struct SandboxWalletTests {
    @Test("the wallet keeps its state beside the hosts' and notifies each region's host of this sandbox")
    func walletKnowsEveryHost() throws {
        let directory = TemporaryDirectory()
        var configuration = try sandboxConfiguration(basePort: 0, dataDirectory: directory.file("state"))
        configuration.walletPublicURL = "http://192.168.1.20:8110"
        let sandbox = try Sandbox.start(configuration: configuration)
        defer { sandbox.stop() }
        let wallet = sandbox.wallet.configuration
        #expect(wallet.hostURLs == Dictionary(uniqueKeysWithValues: sandbox.hosts.map { ($0.name, $0.url) }))
        #expect(wallet.publicURL == "http://192.168.1.20:8110")
        #expect(FileManager.default.fileExists(atPath: directory.file("state/wallet.sqlite").path))
    }
}
