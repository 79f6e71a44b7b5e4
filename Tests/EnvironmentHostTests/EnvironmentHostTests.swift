import HostRules
import HostStorage
import CardPayload
import EnvironmentHost
import Foundation
import SandboxCore
import SandboxHTTP
import Testing
import SandboxTestSupport

/// The platform routes of a host, answered in-process (no socket).
@Suite(.blocksThreads) struct EnvironmentHostTests {
    static let catalogue = try! EnvironmentCatalogue.load(contentsOf: Paths.sandboxData.appendingPathComponent("environments.json"))
    static let merchants = try! MerchantCatalogue.load(directory: Paths.sandboxData, environments: catalogue)
    static let readerKeys = try! ReaderKeys.load(from: Paths.sandboxData.appendingPathComponent("reader-keys.json"))

    /// The payment data of one region, read from the checkout's sandbox-data.
    static func paymentData(_ region: String) throws -> PaymentData {
        PaymentData(
            readerKey: try #require(readerKeys.key(for: region)), readerKeyID: try #require(readerKeys.keyId(for: region)),
            magicAmounts: try MagicAmounts.load(contentsOf: Paths.sandboxData.appendingPathComponent("magic-amounts.json")),
            fx: try FXTable.load(contentsOf: Paths.sandboxData.appendingPathComponent("fx.json")),
            issuer: try Issuer(cardsFile: Paths.sandboxData.appendingPathComponent("cards.json")))
    }
    let folder = TemporaryDirectory()

    func host(_ region: String, _ flavour: Flavour = .sandbox, clock: SandboxClock = SandboxClock()) throws -> EnvironmentHost {
        try Self.host(region, flavour, clock: clock, in: folder.url)
    }

    /// A host of `region` built in this process (not listening) on the database in `directory`.
    static func host(_ region: String, _ flavour: Flavour = .sandbox, clock: SandboxClock, in directory: URL) throws -> EnvironmentHost {
        try EnvironmentHost(
            configuration: .init(
                region: try #require(catalogue.region(region)), flavour: flavour,
                fixtures: try #require(merchants.region(region)), payments: try paymentData(region),
                server: ServerConfiguration(),
                dataDirectory: directory, openAPIFile: Paths.openAPI.appendingPathComponent("environment-host.yaml"),
                clock: clock))
    }

    func json(_ response: Response) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// The `required` list of a schema in the host's OpenAPI document (read with PyYAML).
    static func requiredFields(of schema: String) throws -> Set<String> {
        guard let fields = try requiredFieldsBySchema.get()[schema] else {
            throw HarnessError("openapi/environment-host.yaml has no schema \(schema) with required fields")
        }
        return fields
    }

    /// Every schema's required fields, read once per test process (PyYAML on the whole document
    /// costs a python3 start and half a second of CPU).
    private static let requiredFieldsBySchema: Result<[String: Set<String>], HarnessError> = {
        do {
            return .success(try readRequiredFields())
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    private static func readRequiredFields() throws -> [String: Set<String>] {
        let python = try SpawnedProcess.run("python3", [
            "-c",
            "import yaml,json,sys; d=yaml.safe_load(open(sys.argv[1])); print(json.dumps({k: v['required'] for k, v in d['components']['schemas'].items() if 'required' in v}))",
            Paths.openAPI.appendingPathComponent("environment-host.yaml").path,
        ])
        guard python.status == 0, let object = try JSONSerialization.jsonObject(with: Data(python.standardOutput)) as? [String: [String]] else {
            throw HarnessError("python3 with PyYAML failed to read openapi/environment-host.yaml")
        }
        return object.mapValues(Set.init)
    }

    @Test(arguments: ["EU", "ANZ", "PAYONE_DE", "PAYONE_AT", "PAYPHONE", "CAWL", "OPP", "ING", "MBANK"])
    func environmentIsTheCatalogueEntryOfItsFlavour(region: String) throws {
        let required = try Self.requiredFields(of: "Environment")
        for flavour in Flavour.allCases {
            let host = try host(region, flavour)
            let response = host.respond(to: Request(method: "GET", path: "/v1/environment"))
            #expect(response.status == 200)
            let body = try json(response)
            let settings = try #require(Self.catalogue.region(region)).flavours[flavour]
            #expect(body["id"] as? String == region)
            #expect(body["flavour"] as? String == flavour.rawValue)
            #expect(body["sessionLengthSeconds"] as? Int == settings.sessionLengthSeconds)
            #expect(body["sdkEnvironment"] as? String == settings.sdkEnvironment)
            #expect((body["hostname"] as? String) == settings.hostname)
            #expect(required.isSubset(of: Set(body.keys)), "missing \(required.subtracting(body.keys))")
        }
    }

    @Test func healthReportsRegionFlavourDatabaseAndSandboxTime() throws {
        let clock = SandboxClock(base: { Date(timeIntervalSince1970: 1_790_000_000) })
        clock.advance(by: 600)
        let host = try host("MBANK", .prod, clock: clock)
        let response = host.respond(to: Request(method: "GET", path: "/healthz"))
        #expect(response.status == 200)
        let body = try json(response)
        #expect(body["status"] as? String == "ok")
        #expect(body["region"] as? String == "MBANK")
        #expect(body["flavour"] as? String == "prod")
        #expect(body["database"] as? String == "ok")
        #expect(body["time"] as? String == "2026-09-21T14:23:20Z")
        #expect(try Self.requiredFields(of: "Health").isSubset(of: Set(body.keys)))
    }

    @Test func servesItsOpenAPIDocument() throws {
        let response = try host("EU").respond(to: Request(method: "GET", path: "/openapi.yaml"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/yaml")
        #expect(String(decoding: response.body, as: UTF8.self).contains("/v1/environment:"))
    }

    @Test func wrongMethodAndUnknownPathGetTheEnvelope() throws {
        let host = try host("EU")
        let post = host.respond(to: Request(method: "POST", path: "/v1/environment"))
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        let missing = host.respond(to: Request(method: "GET", path: "/v1/nothing"))
        #expect(missing.status == 404)
        #expect((try json(missing)["error"] as? [String: Any])?["code"] as? String == "not_found")
    }

    @Test func eachRegionHasItsOwnDatabaseFile() throws {
        _ = try host("EU")
        _ = try host("PAYONE_DE")
        #expect(FileManager.default.fileExists(atPath: folder.file("eu.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: folder.file("payone_de.sqlite").path))
        // Reopening a region's own database is fine.
        _ = try host("EU")
    }

    @Test func refusesTheDatabaseOfAnotherRegion() throws {
        _ = try host("ANZ")
        try FileManager.default.moveItem(at: folder.file("anz.sqlite"), to: folder.file("eu.sqlite"))
        #expect(throws: HostError.self) { try host("EU") }
        do {
            _ = try host("EU")
        } catch {
            #expect("\(error)".contains("belongs to region ANZ"))
        }
    }
}
