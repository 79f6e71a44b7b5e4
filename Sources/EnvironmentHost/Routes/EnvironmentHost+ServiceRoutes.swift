import HostRules
import HostStorage
import SandboxCore
import SandboxHTTP
import SandboxStore
import SandboxWire

/// Health, the environment's catalogue entry and the OpenAPI document.
extension EnvironmentHost {
    static func addServiceRoutes(to router: inout Router, _ configuration: Configuration, _ store: Store) throws {
        let region = configuration.region.id
        let flavour = configuration.flavour.rawValue
        let clock = configuration.clock
        // Health, the catalogue and the spec answer from memory on the polling thread (`.nonBlocking`).
        router.get("/healthz", .nonBlocking) { _ in
            // A read proves the database is open and readable, not only that a thread answers; a
            // write that last found the disk full says the host cannot keep anything now.
            let readable = (try? store.read { db in try db.host.isReadable() }) == true
            let database = !readable ? "unavailable" : store.isStorageFull ? "full" : "ok"
            let status = HostHealth(
                status: database == "ok" ? "ok" : "degraded", region: region, flavour: flavour, database: database,
                time: Wire.time(clock.nowMilliseconds()))
            return .json(status, status: database == "ok" ? 200 : 503)
        }
        // The catalogue entry never changes while the host runs: encode it once.
        let environment = try JSON.encode(configuration.region.view(flavour: configuration.flavour))
        router.get("/v1/environment", .nonBlocking) { _ in .json(bytes: environment) }
        try router.serveOpenAPI(configuration.openAPIFile)
    }
}
