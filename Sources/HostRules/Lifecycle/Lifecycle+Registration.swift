import HostStorage
import Foundation
import SandboxCrypto
import SandboxCore
import SandboxStore
import SandboxWire

/// Portal (challenge code) and backend-to-backend (token) registration.
extension Lifecycle {
    /// beginRegistration: a challenge code for the merchant to type into the portal.
    package func beginRegistration(device: String, model: String) throws -> RegistrationChallenge {
        let now = now()
        return try write { db in
            if let existing = try self.device(db, device), existing.registered { throw LifecycleError.deviceAlreadyRegistered }
            var code = credentials.challengeCode()
            while try db.registrations.challengeExists(code) {
                code = credentials.challengeCode()
            }
            let expires = now + Self.challengeLifetime
            try db.registrations.addChallenge(code, device: device, model: model, at: now, expiresAt: expires)
            return RegistrationChallenge(challengeCode: code, expiresAt: Wire.time(expires), expiresAtUnix: Wire.unix(expires))
        }
    }

    /// The portal confirms a challenge for a terminal (or the merchant's next free one).
    package func confirmChallenge(_ text: String, terminal: String?, merchant: String?, from typist: Typist) throws -> ChallengeConfirmation {
        try throttled(typist) {
            guard let code = Credentials.normalizeChallenge(text) else { throw LifecycleError.challengeNotFound }
            let now = now()
            return try write { db in
                guard let challenge = try db.registrations.challenge(code: code) else { throw LifecycleError.challengeNotFound }
                guard challenge.backOfficeCode == nil else { throw LifecycleError.challengeUsed }
                guard now < challenge.expiresAt else { throw LifecycleError.challengeExpired }
                let chosen = try chooseTerminal(db, terminal: terminal, merchant: merchant, method: .portal)
                var backOfficeCode = credentials.backOfficeCode()
                while try db.registrations.backOfficeCodeExists(backOfficeCode) {
                    backOfficeCode = credentials.backOfficeCode()
                }
                let expires = now + Self.backOfficeCodeLifetime
                try db.registrations.confirm(challenge: code, terminal: chosen, backOfficeCode: backOfficeCode, expiresAt: expires)
                return ChallengeConfirmation(backofficeCode: backOfficeCode, terminalId: chosen, expiresAt: Wire.time(expires))
            }
        }
    }

    /// A challenge as the portal's "Find registration" shows it: the device waiting, and since when.
    package struct WaitingRegistration: Codable, Sendable {
        package let challengeCode: String
        package let deviceId: String
        package let deviceModel: String
        package let createdAt: String
        package let expiresAt: String
    }

    /// The registration a challenge code stands for, while it waits for its confirmation.
    package func waitingRegistration(_ text: String, from typist: Typist) throws -> WaitingRegistration {
        try throttled(typist) {
            guard let code = Credentials.normalizeChallenge(text) else { throw LifecycleError.challengeNotFound }
            let now = now()
            return try store.read { db in
                guard let challenge = try db.registrations.challenge(code: code) else { throw LifecycleError.challengeNotFound }
                guard challenge.backOfficeCode == nil else { throw LifecycleError.challengeUsed }
                guard now < challenge.expiresAt else { throw LifecycleError.challengeExpired }
                return WaitingRegistration(
                    challengeCode: code, deviceId: challenge.deviceID, deviceModel: challenge.deviceModel,
                    createdAt: Wire.time(challenge.createdAt), expiresAt: Wire.time(challenge.expiresAt))
            }
        }
    }

    /// The terminal a registration goes to: the one named, or the merchant's first free one.
    private func chooseTerminal(
        _ db: Connection, terminal: String?, merchant: String?, method: TerminalProfile.RegisterOption
    ) throws -> String {
        if let terminal {
            guard let found = try self.terminal(db, terminal) else { throw LifecycleError.terminalNotFound }
            guard found.profile.registerOptions.contains(method) else {
                throw LifecycleError.registrationMethodNotAllowed(method.rawValue)
            }
            guard try !hasDevice(db, terminal: terminal) else { throw LifecycleError.terminalInUse }
            if method == .portal, let token = try db.registrations.liveToken(terminal: terminal, at: now()) {
                throw LifecycleError.terminalLockedByToken(until: Wire.time(token.expiresAt))
            }
            return terminal
        }
        guard let merchant else {
            throw LifecycleError.invalidRequest("Name a terminalId or a merchantId.", field: "terminalId")
        }
        guard try self.merchant(db, merchant) != nil else { throw LifecycleError.merchantNotFound }
        let now = now()
        let candidates = try db.terminals.freeTerminals(merchant: merchant).filter { $0.profile.registerOptions.contains(method) }
        // A terminal a valid registration token waits for is not free for a challenge code.
        let unlocked = try candidates.filter { try method != .portal || db.registrations.liveToken(terminal: $0.id, at: now) == nil }
        guard let free = unlocked.first else {
            throw LifecycleError.noFreeTerminal
        }
        return free.id
    }

    /// A challenge the portal confirmed for a terminal.
    private struct ConfirmedChallenge {
        package let code: String
        package let deviceID: String
        package let deviceModel: String
        package let terminalID: String
    }

    /// Why a back-office code cannot complete a registration, or the challenge it completes.
    private func usableChallenge(
        _ db: Connection, backOfficeCode text: String, at now: Int64
    ) throws -> Result<ConfirmedChallenge, LifecycleError> {
        guard let parsed = Credentials.parseBackOfficeCode(text) else { return .failure(.backOfficeCodeInvalid) }
        guard parsed.region == region.id else { return .failure(.backOfficeCodeWrongEnvironment) }
        // Found by its back-office code, a challenge has its terminal and that code's expiry.
        guard let challenge = try db.registrations.challenge(backOfficeCode: parsed.code), let terminal = challenge.terminalID,
            let expires = challenge.backOfficeExpiresAt
        else { return .failure(.backOfficeCodeInvalid) }
        guard challenge.completedAt == nil else { return .failure(.backOfficeCodeUsed) }
        guard now < expires else { return .failure(.backOfficeCodeExpired) }
        guard try !hasDevice(db, terminal: terminal) else { return .failure(.terminalInUse) }
        return .success(
            ConfirmedChallenge(code: challenge.code, deviceID: challenge.deviceID, deviceModel: challenge.deviceModel, terminalID: terminal))
    }

    /// The wire's answer of both verify calls, by the name these rules use.
    package typealias Verification = RegistrationVerification

    /// verifyChallengeCode: would this back-office code complete a registration now?
    package func verifyBackOfficeCode(_ code: String, from typist: Typist) throws -> Verification {
        try throttled(typist) {
                let now = now()
                return try store.read { db in
                    switch try usableChallenge(db, backOfficeCode: code, at: now) {
                    case .success: .valid
                    case .failure(let error): .refused(error)
                    }
                }
        }
    }

    /// endRegistration: binds the device to the confirmed terminal with its secure code (which an
    /// auto-login terminal may leave out).
    package func completeRegistration(device: String, backOfficeCode: String, pin: String?, from typist: Typist) throws -> RegistrationResult {
        try throttled(typist) {
            let now = now()
            return try write { db in
                let challenge = try usableChallenge(db, backOfficeCode: backOfficeCode, at: now).get()
                guard challenge.deviceID == device else { throw LifecycleError.backOfficeCodeWrongDevice }
                // As with tokens, only an auto-login terminal may be activated without a secure code.
                if pin == nil, try terminal(db, challenge.terminalID)?.profile.autoLogin != true {
                    throw LifecycleError.pinRequired
                }
                let result = try register(db, device: device, model: challenge.deviceModel, terminal: challenge.terminalID, pin: pin, at: now)
                try db.registrations.complete(challenge: challenge.code, at: now)
                return result
            }
        }
    }

    // MARK: - Backend-to-backend tokens

    /// The wire's answer of an issued token, by the name these rules use.
    package typealias IssuedToken = IssuedRegistrationToken

    /// A one-time registration token for a free terminal, optionally "e-mailed" into the mailbox. It
    /// replaces the terminal's earlier tokens that nobody used.
    ///
    /// - Parameter merchant: when the merchant API asks, only its own terminals exist.
    package func issueToken(terminal: String, merchant: String?, email: String?) throws -> IssuedToken {
        let now = now()
        return try write { db in
            guard let found = try self.terminal(db, terminal), merchant == nil || found.merchantID == merchant else {
                throw LifecycleError.terminalNotFound
            }
            _ = try chooseTerminal(db, terminal: terminal, merchant: nil, method: .registrationCode)
            // A new token replaces the terminal's earlier ones nobody used: only the newest registers.
            try db.registrations.removeUnused(terminal: terminal)
            let token = credentials.registrationToken()
            let expires = now + Self.tokenLifetime
            try db.registrations.addToken(token, terminal: terminal, email: email, at: now, expiresAt: expires)
            if let email { try mailToken(db, token, terminal: terminal, expiresAt: expires, to: email, at: now) }
            return issued(token, terminal: terminal, expiresAt: expires, emailedTo: email)
        }
    }

    /// PagBank's activation (docs/pagbank.md): a partner app's `appKey`, and a registration token for
    /// a free terminal of one of its sellers (the first by default), which the device registers with.
    ///
    /// - Throws: `unknown_app_key` (401), `merchant_not_found` for a seller the partner does not
    ///   serve, `no_free_terminal` when every terminal of the seller has a device.
    package func activate(appKey: String, seller: String?) throws -> PartnerActivation {
        let given = Array(appKey.utf8)
        guard let partner = directory.partners.first(where: { ConstantTime.equals(Array($0.appKey.utf8), given) }) else {
            throw LifecycleError.unknownAppKey
        }
        let sellerID = seller ?? partner.sellers[0]
        guard partner.sellers.contains(sellerID), let merchant = directory.merchants[sellerID] else {
            throw LifecycleError(status: 404, code: .merchantNotFound, message: "The partner app has no seller \(sellerID).", field: "sellerId")
        }
        let now = now()
        return try write { db in
            let free = try db.terminals.freeTerminals(merchant: sellerID).filter { $0.profile.registerOptions.contains(.registrationCode) }
            // A terminal an earlier activation's token still waits for is taken last (that app may
            // never have registered): the first device to register with either token gets it.
            let untokened = try free.filter { try db.registrations.liveToken(terminal: $0.id, at: now) == nil }
            guard let terminal = untokened.first ?? free.first else { throw LifecycleError.noFreeTerminal }
            let token = credentials.registrationToken()
            let expires = now + Self.tokenLifetime
            try db.registrations.addToken(token, terminal: terminal.id, email: nil, at: now, expiresAt: expires)
            return PartnerActivation(
                registrationToken: token, terminalId: terminal.id, sellerId: sellerID, sellerName: merchant.name, partnerName: partner.name,
                expiresAt: Wire.time(expires))
        }
    }

    /// The same token, valid for another ``tokenLifetime`` from now (the portal's "Refresh token").
    /// A used token cannot be refreshed; an expired one can, while nobody used it.
    package func refreshToken(_ text: String) throws -> IssuedToken {
        let now = now()
        return try write { db in
            let stored = try unusedToken(db, text).get()
            let expires = now + Self.tokenLifetime
            try db.registrations.refresh(token: text, expiresAt: expires)
            return issued(text, terminal: stored.terminalID, expiresAt: expires, emailedTo: nil)
        }
    }

    /// Revokes a token nobody registered with (the portal's "Revoke token"): it is invalid from now
    /// on (`registration_token_invalid`), and its terminal no longer waits for it.
    ///
    /// - Throws: `registration_token_used` for a token a device registered with.
    package func revokeToken(_ text: String) throws {
        try write { db in
            _ = try unusedToken(db, text).get()
            try db.registrations.remove(token: text)
        }
    }

    /// The token e-mailed (into the mailbox) to `email`.
    package func emailToken(_ text: String, to email: String) throws -> IssuedToken {
        let now = now()
        return try write { db in
            let stored = try unusedToken(db, text).get()
            guard now < stored.expiresAt else { throw LifecycleError.tokenExpired }
            try db.registrations.setEmail(token: text, email: email)
            try mailToken(db, text, terminal: stored.terminalID, expiresAt: stored.expiresAt, to: email, at: now)
            return issued(text, terminal: stored.terminalID, expiresAt: stored.expiresAt, emailedTo: email)
        }
    }

    /// The link an app opens (or a camera scans) to register with the token.
    private func link(_ token: String) -> String {
        "taponmobile://register?environment=\(region.id)&token=\(token)"
    }

    private func issued(_ token: String, terminal: String, expiresAt: Int64, emailedTo: String?) -> IssuedToken {
        let payload = link(token)
        return IssuedToken(
            registrationToken: token, terminalId: terminal, expiresAt: Wire.time(expiresAt), qrPayload: payload,
            qrSvg: (try? QRImage.svg(payload)) ?? "", emailedTo: emailedTo)
    }

    private func mailToken(_ db: Connection, _ token: String, terminal: String, expiresAt: Int64, to email: String, at now: Int64) throws {
        try mail(
            db, to: email, subject: "Activate terminal \(terminal)",
            body: """
                Your Tap to Pay terminal \(terminal) is ready to be activated in \(region.name).

                Registration token: \(token)
                Link for the app: \(link(token))

                The token can be used once and expires at \(Wire.time(expiresAt)).
                """, qr: link(token), at: now)
    }

    package func mail(_ db: Connection, to recipient: String, subject: String, body: String, qr: String? = nil, at now: Int64) throws {
        try db.mailbox.add(to: recipient, subject: subject, body: body, qr: qr, at: now)
    }

    /// A token of this host that was not used yet (it may have expired: the portal refreshes one).
    private func unusedToken(_ db: Connection, _ token: String) throws -> Result<RegistrationRepository.Token, LifecycleError> {
        guard let tokenRegion = Credentials.tokenRegion(token) else { return .failure(.tokenInvalid) }
        guard tokenRegion == region.id.uppercased() else { return .failure(.tokenWrongEnvironment) }
        guard let row = try db.registrations.token(token) else { return .failure(.tokenInvalid) }
        guard row.state != "used" else { return .failure(.tokenUsed) }
        return .success(row)
    }

    /// The stored token, or the error this token gets whatever the step.
    private func token(_ db: Connection, _ token: String, at now: Int64) throws -> Result<RegistrationRepository.Token, LifecycleError> {
        try unusedToken(db, token).flatMap { row in now < row.expiresAt ? .success(row) : .failure(.tokenExpired) }
    }

    /// verifyRegistrationToken: true moves the token to "verified"; false says why in `reason`
    /// and `message`. A valid answer names the terminal and whether `end` will need a PIN.
    ///
    /// The device that began a registration may verify it again (and then begin and end it)
    /// until the token expires, so a device whose `end` was refused (`pin_required`, a wrong
    /// PIN format) can finish it: `device` is how the host knows it is that device.
    package func verifyToken(_ text: String, device: String?, from typist: Typist) throws -> Verification {
        try throttled(typist) {
            let now = now()
            return try write { db in
                let row: RegistrationRepository.Token
                switch try token(db, text, at: now) {
                case .failure(let error): return .refused(error)
                case .success(let found): row = found
                }
                let terminalID = row.terminalID
                let begun = row.state == "begun"
                if begun {
                    guard let device else { return .refused(.outOfOrder("this registration was begun already")) }
                    guard row.deviceID == device else { return .refused(.registrationWrongDevice) }
                }
                if try hasDevice(db, terminal: terminalID) { return .refused(.terminalInUse) }
                if !begun {
                    try db.registrations.markVerified(token: text)
                }
                let autoLogin = try terminal(db, terminalID)?.profile.autoLogin == true
                return Verification(valid: true, reason: nil, message: nil, terminalId: terminalID, pinRequired: !autoLogin)
            }
        }
    }

    package struct Begun: Codable, Sendable {
        package let terminalId: String
        package let state: String
    }

    /// beginTokenRegistration: the device claims a verified token.
    package func beginTokenRegistration(_ text: String, device: String, model: String, from typist: Typist) throws -> Begun {
        try throttled(typist) {
            let now = now()
            return try write { db in
                let row = try token(db, text, at: now).get()
                let terminal = row.terminalID
                switch row.state {
                case "issued": throw LifecycleError.outOfOrder("verify the token first")
                case "begun":
                    guard row.deviceID == device else { throw LifecycleError.registrationWrongDevice }
                    return Begun(terminalId: terminal, state: "begun")
                default: break
                }
                if let existing = try self.device(db, device), existing.registered { throw LifecycleError.deviceAlreadyRegistered }
                guard try !hasDevice(db, terminal: terminal) else { throw LifecycleError.terminalInUse }
                try db.registrations.begin(token: text, device: device, model: model)
                return Begun(terminalId: terminal, state: "begun")
            }
        }
    }

    /// endTokenRegistration: activates the terminal on the device that began.
    package func endTokenRegistration(_ text: String, device: String, pin: String?, from typist: Typist) throws -> RegistrationResult {
        try throttled(typist) {
            let now = now()
            return try write { db in
                let row = try token(db, text, at: now).get()
                guard row.state == "begun" else { throw LifecycleError.outOfOrder("begin the registration first") }
                // A begun token has its device and the device's model.
                guard row.deviceID == device, let model = row.deviceModel else { throw LifecycleError.registrationWrongDevice }
                let terminalID = row.terminalID
                guard let terminal = try self.terminal(db, terminalID) else { throw LifecycleError.terminalNotFound }
                if pin == nil && !terminal.profile.autoLogin { throw LifecycleError.pinRequired }
                let result = try register(db, device: device, model: model, terminal: terminalID, pin: pin, at: now)
                try db.registrations.markUsed(token: text)
                return result
            }
        }
    }
}
