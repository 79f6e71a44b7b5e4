import HostStorage
import SandboxTime
import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// The terminal lifecycle of one host: registration, login, sessions, secure code, unregister.
///
/// Every operation runs in one write transaction, so two devices racing for one terminal or
/// one code cannot both win. Rules and error codes: docs/terminal-lifecycle.md.
package struct Lifecycle: Sendable {
    package let store: Store
    package let clock: any TimeSource
    package let credentials: Credentials
    package let region: Region
    package let flavour: Flavour
    /// The fixtures decoded once: merchants, terminal profiles and their TerminalInfo by id.
    package let directory: Directory
    /// Where a transaction ended by an unregistration reports its outcome.
    package let outbox: Outbox
    /// Sessions found since the last write (see ``write(_:)``); none kept by replicas on
    /// PostgreSQL, where another replica's write would not empty it.
    package let sessions: SessionCache
    /// Wrong codes and secrets by client address and device (``throttled(_:_:)``), counted in the
    /// database by replicas on PostgreSQL.
    package let attempts: AttemptThrottle

    /// Every write of the lifecycle goes through here, as sessions, devices and terminals change
    /// only here: the session cache is emptied once the write has ended, committed or not.
    package func write<T>(_ body: (Connection) throws -> T) throws -> T {
        defer { sessions.invalidate() }
        return try store.write(body)
    }

    /// Fixtures never change while a host runs, so every request reads them from memory instead of
    /// decoding the JSON kept in the database (which is there for joins and history).
    package struct Directory: Sendable {
        package let merchants: [String: Merchant]
        package let terminals: [String: Terminal]
        package let infos: [String: TerminalInfo]
        /// The partner apps of the region (PagBank's Tap On), by `appKey`.
        package let partners: [RegionFixtures.Partner]

        package init(_ fixtures: RegionFixtures, region: Region) {
            var merchants: [String: Merchant] = [:]
            var terminals: [String: Terminal] = [:]
            var infos: [String: TerminalInfo] = [:]
            for merchant in fixtures.merchants {
                merchants[merchant.id] = merchant
                for profile in merchant.terminals {
                    terminals[profile.id] = Terminal(id: profile.id, merchantID: merchant.id, profile: profile)
                    infos[profile.id] = TerminalInfo(terminal: profile, merchant: merchant, region: region)
                }
            }
            self.merchants = merchants
            self.terminals = terminals
            self.infos = infos
            partners = fixtures.partners
        }
    }

    package static let challengeLifetime: Int64 = 10 * 60 * 1000
    package static let backOfficeCodeLifetime: Int64 = 10 * 60 * 1000
    package static let tokenLifetime: Int64 = 24 * 60 * 60 * 1000
    /// Certificates expire after three months without a login.
    package static let certificateLifetime = Lifetimes.certificate
    package static let maximumPinAttempts = 5

    package var sessionLifetime: Int64 { Int64(region.flavours[flavour].sessionLengthSeconds) * 1000 }

    /// The sandbox clock in milliseconds since 1970.
    package func now() -> Int64 { clock.nowMilliseconds() }

    // MARK: - Devices and terminals as stored (HostStorage's records)

    package typealias Device = DeviceRecord
    package typealias Terminal = TerminalRecord



    package func device(_ db: Connection, _ id: String) throws -> Device? {
        try db.terminals.device(id)
    }

    package func terminal(_ db: Connection, _ id: String) throws -> Terminal? {
        directory.terminals[id]
    }

    package func merchant(_ db: Connection, _ id: String) throws -> Merchant? {
        directory.merchants[id]
    }

    package func hasDevice(_ db: Connection, terminal: String) throws -> Bool {
        try db.terminals.hasRegisteredDevice(terminal: terminal)
    }

    /// Registers (or re-registers) a device onto a free terminal and returns its new secret.
    package func register(
        _ db: Connection, device: String, model: String, terminal: String, pin: String?, at now: Int64
    ) throws -> RegistrationResult {
        if let existing = try self.device(db, device), existing.registered { throw LifecycleError.deviceAlreadyRegistered }
        if try hasDevice(db, terminal: terminal) { throw LifecycleError.terminalInUse }
        let secret = credentials.secret(prefix: "ds_")
        let salt = pin.map { _ in credentials.salt() }
        let pinHash = pin.flatMap { pin in salt.map { Credentials.pinHash(pin, salt: $0) } }
        try db.terminals.register(
            device: device, model: model, terminal: terminal, secretHash: Credentials.hash(secret), pinSalt: salt, pinHash: pinHash,
            at: now)
        return RegistrationResult(terminalId: terminal, deviceSecret: secret, registeredAt: Wire.time(now))
    }

    /// Marks a device unregistered, frees its terminal and ends its sessions; a transaction it left
    /// in flight ends as TIMEOUT, so the next device on the terminal is not kept busy by it.
    package func unregister(_ db: Connection, device: String, reason: String, at now: Int64) throws {
        let abandoned = try db.transactions.inFlight(device: device)
        try outbox.timeOut(db, abandoned, message: "The device was unregistered", at: now)
        try db.terminals.unregister(device: device, reason: reason)
        try db.sessions.end(device: device, at: now)
    }

    /// The device a credential names, applying certificate expiry.
    ///
    /// Returns a `Result` instead of throwing for expiry, because unregistering must commit.
    package func authenticate(_ db: Connection, device id: String, secret: String, at now: Int64) throws -> Result<Device, LifecycleError> {
        guard let device = try device(db, id), Credentials.matches(secret, hash: device.secretHash) else {
            return .failure(.wrongDeviceCredential)
        }
        guard device.registered else { return .failure(.terminalUnregistered) }
        if now - (device.lastLoginAt ?? device.registeredAt) > Self.certificateLifetime {
            try unregister(db, device: device.id, reason: "certificates_expired", at: now)
            return .failure(.certificatesExpired)
        }
        return .success(device)
    }

    package init(store: Store, clock: any TimeSource, credentials: Credentials, region: Region, flavour: Flavour, directory: Directory, outbox: Outbox) {
        self.store = store
        self.clock = clock
        self.credentials = credentials
        self.region = region
        self.flavour = flavour
        self.directory = directory
        self.outbox = outbox
        let replicated = store.engine == .postgres
        sessions = SessionCache(enabled: !replicated)
        attempts = AttemptThrottle(shared: replicated ? store : nil)
    }
}

