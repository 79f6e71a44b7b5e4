import HostStorage
import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// Login, sessions, secure code, unregister.
extension Lifecycle {
    /// doLogin: a new session; wrong codes count towards the lock, and that count commits.
    ///
    /// The device's own lock (five wrong codes, until the back office unlocks it) stays as it
    /// was; `typist` counts the wrong codes of its address too (``throttled(_:_:)``).
    package func login(device id: String, secret: String, pin: String?, from typist: Typist) throws -> LoginSession {
        try throttled(typist) { try login(device: id, secret: secret, pin: pin) }
    }

    private func login(device id: String, secret: String, pin: String?) throws -> LoginSession {
        let now = now()
        let outcome: Result<LoginSession, LifecycleError> = try write { db in
            let device: Device
            switch try authenticate(db, device: id, secret: secret, at: now) {
            case .failure(let error): return .failure(error)
            case .success(let found): device = found
            }
            guard let terminalID = device.terminalID, let terminal = try terminal(db, terminalID) else {
                return .failure(.terminalUnregistered)
            }
            if device.locked { return .failure(.secureCodeLocked) }
            if let failure = try checkPin(db, device: device, pin: pin, autoLogin: terminal.profile.autoLogin) {
                return .failure(failure)
            }
            return .success(try startSession(db, device: device.id, terminal: terminalID, at: now))
        }
        return try outcome.get()
    }

    /// A new session of `device` on `terminal`, recorded as its login; the device's older sessions
    /// end (one session per device).
    package func startSession(_ db: Connection, device: String, terminal: String, at now: Int64) throws -> LoginSession {
        try db.terminals.recordLogin(device: device, at: now)
        try db.sessions.end(device: device, at: now)
        let token = credentials.secret(prefix: "st_")
        let expires = now + sessionLifetime
        try db.sessions.add(tokenHash: Credentials.hash(token), device: device, terminal: terminal, at: now, expiresAt: expires)
        return LoginSession(sessionToken: token, terminalId: terminal, expiresAt: Wire.time(expires), expiresAtUnix: Wire.unix(expires))
    }

    /// Checks a secure code; a wrong one is counted and the fifth locks the device.
    ///
    /// - Returns: the error to answer, or nil when the code is right (or not needed).
    private func checkPin(_ db: Connection, device: Device, pin: String?, autoLogin: Bool) throws -> LifecycleError? {
        guard let pin else { return autoLogin ? nil : .pinRequired }
        guard let salt = device.pinSalt, let hash = device.pinHash else {
            // Registered without a code on an auto-login terminal: there is nothing to compare.
            return autoLogin ? nil : .pinRequired
        }
        if Credentials.pinMatches(pin, salt: salt, hash: hash) { return nil }
        let attempts = device.failedAttempts + 1
        let locked = attempts >= Self.maximumPinAttempts
        try db.terminals.recordWrongPin(device: device.id, attempts: attempts, locked: locked)
        return locked ? .secureCodeLocked : .invalidPin(remaining: Self.maximumPinAttempts - attempts)
    }

    package struct CurrentSession: Sendable {
        package let tokenHash: String
        package let device: Device
        package let terminal: Terminal
        package let expiresAt: Int64
    }

    /// The session a bearer token names, or the error it gets.
    package func session(bearer: String?) throws -> CurrentSession {
        if let known = try cachedSession(bearer: bearer) { return known }
        guard let bearer else { throw LifecycleError.unauthorized }
        let now = now()
        let generation = sessions.generation
        let hash = Credentials.hash(bearer)
        // One statement (one round trip on PostgreSQL): the session with its device.
        guard let (row, device) = try store.readStatement({ db in try db.sessions.withDevice(tokenHash: hash) }) else {
            throw LifecycleError.unauthorized
        }
        guard let device, device.registered else { throw LifecycleError.terminalUnregistered }
        let expires = row.expiresAt
        guard row.endedAt == nil, now < expires else { throw LifecycleError.sessionExpired }
        guard let terminal = directory.terminals[row.terminalID] else { throw LifecycleError.terminalUnregistered }
        let session = CurrentSession(tokenHash: hash, device: device, terminal: terminal, expiresAt: expires)
        sessions.remember(session, token: bearer, since: generation)
        return session
    }

    /// The session a bearer token names when it is in memory, `nil` when finding it needs the
    /// database; the error it gets when that is known without the database (no token, an expired
    /// session). It touches neither the database nor a lock held across I/O, so a route may call
    /// it on a polling thread.
    package func cachedSession(bearer: String?) throws -> CurrentSession? {
        guard let bearer, !bearer.isEmpty else { throw LifecycleError.unauthorized }
        guard let known = sessions.session(bearer) else { return nil }
        // Nothing was written since it was found; only the clock may have ended it.
        guard now() < known.expiresAt else { throw LifecycleError.sessionExpired }
        return known
    }

    package func sessionState(_ session: CurrentSession) -> SessionState {
        SessionState(terminalId: session.terminal.id, expiresAt: Wire.time(session.expiresAt), expiresAtUnix: Wire.unix(session.expiresAt))
    }

    /// doLogout: the session ends now.
    package func logout(_ session: CurrentSession) throws {
        let now = now()
        try write { db in
            try db.sessions.end(tokenHash: session.tokenHash, at: now)
        }
    }

    package func terminalInfo(_ session: CurrentSession) throws -> TerminalInfo {
        guard let info = directory.infos[session.terminal.id] else { throw LifecycleError.terminalNotFound }
        return info
    }

    /// updateSecretCode: the old code must be right (a wrong one counts towards the lock).
    package func updateSecretCode(_ session: CurrentSession, old: String, new: String, from typist: Typist) throws {
        try throttled(typist) { try updateSecretCode(session, old: old, new: new) }
    }

    private func updateSecretCode(_ session: CurrentSession, old: String, new: String) throws {
        let outcome: LifecycleError? = try write { db in
            guard let device = try device(db, session.device.id) else { return .terminalUnregistered }
            if device.locked { return .secureCodeLocked }
            if let failure = try checkPin(db, device: device, pin: old, autoLogin: false) {
                // A device without a code (auto-login registration) sets its first one here.
                if device.pinHash != nil || failure != .pinRequired { return failure }
            }
            let salt = credentials.salt()
            try db.terminals.setPin(device: device.id, salt: salt, hash: Credentials.pinHash(new, salt: salt))
            return nil
        }
        if let outcome { throw outcome }
    }

    /// relinkAccount: the merchant's Tap to Pay terms are signed again on this device.
    package func relink(_ session: CurrentSession) throws -> RelinkedAccount {
        let now = now()
        try write { db in
            try db.terminals.relink(device: session.device.id, at: now)
        }
        return RelinkedAccount(relinkedAt: Wire.time(now))
    }

    /// unregister (from the device): frees the terminal; the credential stops working.
    package func unregisterDevice(_ id: String, secret: String) throws {
        let now = now()
        let outcome: LifecycleError? = try write { db in
            switch try authenticate(db, device: id, secret: secret, at: now) {
            case .failure(let error): return error
            case .success(let device):
                try unregister(db, device: device.id, reason: "device", at: now)
                return nil
            }
        }
        if let outcome { throw outcome }
    }

    /// isDeviceRegistered, as the host sees it (a wrong secret is simply "not registered").
    ///
    /// This is a device call like any other: certificates that expired unregister the device here too.
    package func deviceStatus(_ id: String, secret: String) throws -> DeviceStatus {
        let now = now()
        return try write { db in
            switch try authenticate(db, device: id, secret: secret, at: now) {
            case .success(let device): DeviceStatus(registered: true, terminalId: device.terminalID)
            case .failure: DeviceStatus(registered: false, terminalId: nil)
            }
        }
    }

    /// loadSupportNumber: one number per installation, kept across registrations.
    package func supportNumber(device: String) throws -> SupportNumber {
        try write { db in
            if let existing = try db.terminals.supportNumber(device: device) { return SupportNumber(supportNumber: existing) }
            var number = credentials.supportNumber()
            while try db.terminals.supportNumberExists(number) {
                number = credentials.supportNumber()
            }
            try db.terminals.addSupportNumber(number, device: device)
            return SupportNumber(supportNumber: number)
        }
    }
}
