import HostStorage
import Foundation
import SandboxCore
import SandboxStore

/// What the portal and merchant backends see and do: terminals, unlock, unregister, mailbox, reset.
extension Lifecycle {
    package typealias TerminalState = HostStorage.TerminalState
    package typealias Mail = HostStorage.Mail


    /// Terminals of one merchant (merchant API) or of every merchant, in fixture order.
    package func terminals(merchant: String?) throws -> [TerminalState] {
        let now = now()
        return try store.read { db in try db.terminals.states(merchant: merchant, at: now) }
    }

    package func terminalState(_ id: String) throws -> TerminalState {
        try store.read { db in
            guard let state = try db.terminals.state(terminal: id, at: now()) else { throw LifecycleError.terminalNotFound }
            return state
        }
    }

    package struct MerchantSummary: Codable, Sendable {
        package let merchantId: String
        package let name: String
        /// The owner's address from the fixture: where the portal offers to e-mail a registration token.
        package let email: String?
        package let terminals: [TerminalState]
    }

    package func merchants() throws -> [MerchantSummary] {
        let terminals = try terminals(merchant: nil)
        return try store.read { db in
            try db.terminals.merchants().map { merchant in
                MerchantSummary(
                    merchantId: merchant.id, name: merchant.name, email: merchant.email, terminals: terminals.filter { $0.merchantId == merchant.id })
            }
        }
    }

    /// The merchant an API key belongs to.
    package func merchant(apiKey: String) throws -> String? {
        try store.read { db in
            try db.terminals.merchant(apiKey: apiKey)
        }
    }

    /// The back office clears the lock after too many wrong secure codes.
    package func unlock(terminal id: String) throws {
        try write { db in
            guard try terminal(db, id) != nil else { throw LifecycleError.terminalNotFound }
            guard try db.terminals.unlock(terminal: id) else { throw LifecycleError.terminalNotRegistered }
        }
    }

    /// The back office unregisters the device of a terminal.
    package func unregister(terminal id: String) throws {
        let now = now()
        try write { db in
            guard try terminal(db, id) != nil else { throw LifecycleError.terminalNotFound }
            guard let device = try db.terminals.registeredDevice(terminal: id) else { throw LifecycleError.terminalNotRegistered }
            try unregister(db, device: device, reason: "backoffice", at: now)
        }
    }


    package func mailbox() throws -> [Mail] {
        try store.read { db in try db.mailbox.all() }
    }

    /// Writes the fixtures into the database: new merchants and terminals appear, changed ones are
    /// updated, devices and their history stay.
    package func loadFixtures(_ fixtures: RegionFixtures) throws {
        try write { db in try db.terminals.save(fixtures.merchants) }
    }

    /// POST /_sandbox/reset: every device, session, code, token, mail and transaction is forgotten;
    /// spent card reads are not (a read id clears once, ever).
    package func reset(_ fixtures: RegionFixtures) throws {
        try write { db in try db.host.reset() }
        attempts.reset()
        try loadFixtures(fixtures)
    }

    /// A snapshot of this region's database (`Connection.backup(to:)`) brought back whole
    /// (``Store/restore(from:)``): every row is the snapshot's, then the fixtures are written over
    /// it as at start, and the counts of wrong codes are forgotten. Answers the clock offset the
    /// snapshot kept. The request gate keeps requests out meanwhile.
    ///
    /// - Throws: ``SnapshotMismatch`` when another region's host saved it, `DatabaseError.schemaMismatch`
    ///   when another schema version did (nothing changed either way).
    package func restore(from path: String, _ fixtures: RegionFixtures) throws -> Double {
        // Whose it is, read from the copy before anything changes.
        let owner: String? = try {
            let copy = try Connection(path: path, access: .readOnly)
            guard try !copy.query("SELECT name FROM sqlite_master WHERE name = 'host_identity'").isEmpty else { return nil }
            return try copy.query("SELECT value FROM host_identity WHERE key = 'region'").first?["value"]
        }()
        if let owner, owner != region.id { throw SnapshotMismatch(region: owner) }
        defer { sessions.invalidate() }
        try store.restore(from: path)
        let offset = try write { db in
            try db.terminals.save(fixtures.merchants)
            return try db.host.clockOffset()
        }
        attempts.reset()
        return offset
    }

    /// A snapshot that another region's host saved.
    package struct SnapshotMismatch: Error {
        package let region: String
    }
}
