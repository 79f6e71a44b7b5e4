import HostRules
import HostStorage
import Foundation
import SandboxHTTP
import SandboxWire

/// `POST /_sandbox/seed`: this region's part of a seed (``HostSeed``), applied whole or refused
/// whole with the path of its first bad field; `?dryRun=true` checks it and keeps nothing.
extension EnvironmentHost {
    static func addSeedRoutes(to router: inout Router, _ seeding: Seeding) {
        router.post("/_sandbox/seed") { request in
            let dryRun = try request.flag("dryRun")
            let seed = try request.decode(HostSeed.self)
            if let parsed = try? JSONSerialization.jsonObject(with: Data(request.body)), let field = HostSeed.unknownField(in: parsed) {
                throw HTTPError.invalidRequest("\(field) is not a field of a seed (sandbox-data/seeds/seed.schema.json).", field: field)
            }
            do {
                return .json(try seeding.apply(seed, dryRun: dryRun), status: dryRun ? 200 : 201)
            } catch let refusal as Seeding.Refusal {
                throw HTTPError(status: refusal.conflict == nil ? 400 : 409, code: refusal.conflict ?? .invalidRequest, message: refusal.message, field: refusal.field)
            }
        }
    }
}
