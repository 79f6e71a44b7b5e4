import HostStorage
import Foundation
import SandboxCore

/// The stores of the MONEI region's accounts (`sandbox-data/monei.json`): each store belongs to one
/// account (a merchant of `merchants.json`) and holds points of sale (that merchant's terminals).
///
/// ```json
/// { "stores": [ { "id": "store_giralda_centro", "accountId": "MONEI-M01", "name": "La Giralda, Centro",
///                 "pointsOfSale": ["MONEI-T0101", "MONEI-T0102"] } ] }
/// ```
public struct MoneiStores: Sendable, Equatable {
    public struct Store: Codable, Sendable, Equatable {
        public let id: String
        /// The merchant id of the account the store belongs to.
        public let accountId: String
        public let name: String
        /// Terminal ids of that merchant, at least one; a terminal is in one store only.
        public let pointsOfSale: [String]
    }

    /// Why `monei.json` cannot be used: the file, the field and the problem.
    public struct DataError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public static let fileName = "monei.json"

    public let stores: [Store]
    private let byPointOfSale: [String: Store]

    /// Checks the stores against the region's fixtures: known accounts, their own terminals, unique ids.
    public init(stores: [Store], fixtures: RegionFixtures) throws(DataError) {
        var byPointOfSale: [String: Store] = [:]
        var ids: Set<String> = []
        for (index, store) in stores.enumerated() {
            let path = "\(Self.fileName): stores[\(index)]"
            guard !store.id.isEmpty, store.id.utf8.count <= 64, ids.insert(store.id).inserted else {
                throw DataError(description: "\(path).id: \"\(store.id)\" is empty, longer than 64 characters or used twice")
            }
            guard let merchant = fixtures.merchant(store.accountId) else {
                throw DataError(description: "\(path).accountId: \"\(store.accountId)\" is no merchant of the region in merchants.json")
            }
            guard !store.pointsOfSale.isEmpty else { throw DataError(description: "\(path).pointsOfSale: must list at least one terminal") }
            for (position, terminal) in store.pointsOfSale.enumerated() {
                guard merchant.terminal(terminal) != nil else {
                    throw DataError(description: "\(path).pointsOfSale[\(position)]: \"\(terminal)\" is no terminal of \(merchant.id)")
                }
                guard byPointOfSale[terminal] == nil else {
                    throw DataError(description: "\(path).pointsOfSale[\(position)]: \"\(terminal)\" is in another store already")
                }
                byPointOfSale[terminal] = store
            }
        }
        self.stores = stores
        self.byPointOfSale = byPointOfSale
    }

    /// Reads and checks `monei.json`.
    public static func load(contentsOf url: URL, fixtures: RegionFixtures) throws(DataError) -> MoneiStores {
        struct File: Decodable { let stores: [Store] }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        } catch {
            throw DataError(description: "\(fileName): cannot be read as {\"stores\": [{id, accountId, name, pointsOfSale}]}: \(error)")
        }
        return try MoneiStores(stores: file.stores, fixtures: fixtures)
    }

    public static func == (lhs: MoneiStores, rhs: MoneiStores) -> Bool { lhs.stores == rhs.stores }

    /// The store with this id when it belongs to `account`, else nil (another account's store is
    /// not found, so its existence does not leak).
    package func store(_ id: String, account: String) -> Store? {
        stores.first { $0.id == id && $0.accountId == account }
    }

    /// The store a point of sale is in.
    package func store(ofPointOfSale terminal: String) -> Store? { byPointOfSale[terminal] }

    /// The account's first store.
    package func firstStore(account: String) -> Store? { stores.first { $0.accountId == account } }
}
