import HostStorage
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxStore
import SandboxWire

/// Geopagos' reader tokens on a Geopagos region's host (docs/geopagos.md).
///
/// Apple's Tap to Pay reader asks the app for a token (the SDK's `TokenProvider`); the app asks its
/// backend, which buys one here with the merchant's API key (`POST /merchant/v1/reader-tokens`). The
/// token names a terminal, and so the terminal configuration (country, currency) the transactions
/// after it run on. The device trades it for a session of the terminal API (`POST
/// /terminal/v1/reader-sessions`); a token that is forged or of another region is refused
/// `reader_token_invalid`, one past its 24 hours `reader_token_expired` (on the host's clock), which
/// the reader turns into the SDK's `.rejected(.invalid(_))` and `.rejected(.expired)`.
package struct ReaderTokens: Sendable {
    package static let lifetime: Int64 = 24 * 60 * 60 * 1000

    /// What a token says: whose terminal, and until when.
    package struct Claims: ExpiringClaims, Equatable {
        package let merchantId: String
        package let terminalId: String
        /// Issued and expiring, in seconds since 1970 on the host's clock.
        package let iat: Int64
        package let exp: Int64
        /// The token's own id: no two tokens are the same.
        package let jti: String
    }

    package let lifecycle: Lifecycle
    package let tokens: SignedTokens<Claims>
    package let random: any RandomSource

    package var region: Region { lifecycle.region }

    /// `POST /merchant/v1/reader-tokens`: a token for a terminal of `merchant` (its first by default).
    ///
    /// - Throws: `terminal_not_found` for a terminal of another merchant or none; `invalid_request`
    ///   for a country, `invalid_currency` for a currency other than the region's.
    package func issue(merchant id: String, _ body: ReaderTokenRequest) throws -> ReaderToken {
        guard let merchant = lifecycle.directory.merchants[id] else { throw LifecycleError.merchantNotFound }
        let terminalID = body.terminalId ?? merchant.terminals.first?.id
        guard let terminalID, let terminal = lifecycle.directory.terminals[terminalID], terminal.merchantID == merchant.id else {
            throw LifecycleError.terminalNotFound
        }
        if let country = body.country, country != region.country {
            throw LifecycleError.invalidRequest("This host's terminals sell in \(region.country), not \(country).", field: "country")
        }
        if let currency = body.currency, currency != region.currency.code {
            throw LifecycleError(
                status: 400, code: .invalidCurrency, message: "This host's terminals sell in \(region.currency.code), not \(currency).",
                field: "currency")
        }
        let now = lifecycle.now()
        let expires = now + Self.lifetime
        let claims = Claims(
            merchantId: merchant.id, terminalId: terminalID, iat: now / 1000, exp: expires / 1000, jti: Hex.encode(random.bytes(count: 12)))
        return ReaderToken(
            token: try tokens.issue(claims), terminalId: terminalID, merchantId: merchant.id, country: region.country,
            currency: region.currency.code, expiresAt: Wire.time(claims.exp * 1000))
    }

    /// `POST /terminal/v1/reader-sessions`: the device registered on the token's terminal (another
    /// device there, and this device's registration elsewhere, end), and a session of it.
    ///
    /// - Throws: `reader_token_invalid`, `reader_token_expired` (401).
    package func session(_ body: ReaderSessionRequest, device: String, model: String) throws -> ReaderSession {
        let now = lifecycle.now()
        let claims: Claims
        do throws(SignedTokens<Claims>.Failure) {
            claims = try tokens.verify(body.readerToken, at: now)
        } catch {
            throw error == .expired ? LifecycleError.readerTokenExpired : LifecycleError.readerTokenInvalid
        }
        // A token of a terminal the fixtures no longer have is no token.
        guard lifecycle.directory.terminals[claims.terminalId]?.merchantID == claims.merchantId else {
            throw LifecycleError.readerTokenInvalid
        }
        let login = try lifecycle.write { db -> LoginSession in
            let existing = try lifecycle.device(db, device)
            if let existing, existing.registered, existing.terminalID != claims.terminalId {
                try lifecycle.unregister(db, device: device, reason: "reader_token_switched", at: now)
            }
            if existing?.registered != true || existing?.terminalID != claims.terminalId {
                if let other = try db.terminals.registeredDevice(terminal: claims.terminalId), other != device {
                    try lifecycle.unregister(db, device: other, reason: "reader_token_replaced", at: now)
                }
                _ = try lifecycle.register(db, device: device, model: model, terminal: claims.terminalId, pin: nil, at: now)
            }
            return try lifecycle.startSession(db, device: device, terminal: claims.terminalId, at: now)
        }
        return ReaderSession(
            sessionToken: login.sessionToken, region: region.id, terminalId: claims.terminalId, merchantId: claims.merchantId, country: region.country,
            currency: region.currency.code, expiresAt: login.expiresAt, expiresAtUnix: login.expiresAtUnix ?? 0,
            tokenExpiresAt: Wire.time(claims.exp * 1000))
    }

    package init(lifecycle: Lifecycle, tokens: SignedTokens<Claims>, random: any RandomSource) {
        self.lifecycle = lifecycle
        self.tokens = tokens
        self.random = random
    }
}
