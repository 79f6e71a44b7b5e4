import Foundation
import SandboxCrypto
import SandboxHTTP

/// The POS tokens of the MONEI host: what `POST /v1/pos/auth-token` issues to a merchant's backend
/// and the device presents as `Authorization: Bearer <token>`.
///
/// A token is shaped like MONEI's JWT (`header.claims.signature`, each base64url) but signed with
/// HMAC-SHA256 under a secret of the host (kept in its database, so tokens survive a restart), and
/// valid for 24 hours on the host's clock: moving `/_sandbox/clock` a day ahead expires it.
struct PosTokens: Sendable {
    static let lifetime: Int64 = 24 * 60 * 60 * 1000
    static let header = #"{"alg":"HS256","typ":"JWT"}"#

    /// What a token says: whose it is and until when.
    struct Claims: Codable, Sendable, Equatable {
        /// The account (merchant id).
        let acc: String
        let storeId: String
        let pointOfSaleId: String
        /// Issued and expiring, in seconds since 1970 on the host's clock.
        let iat: Int64
        let exp: Int64
        /// The token's own id: no two tokens are the same.
        let jti: String
    }

    private let key: HMACSHA256.Key
    private let region: String

    init(secret: [UInt8], region: String) {
        key = HMACSHA256.Key(secret)
        self.region = region
    }

    func issue(_ claims: Claims) throws -> String {
        let signed = Base64.encode(Array(Self.header.utf8), urlSafe: true) + "." + Base64.encode(try JSON.encode(claims), urlSafe: true)
        return signed + "." + Base64.encode(key.authenticate(Array((region + "." + signed).utf8)), urlSafe: true)
    }

    /// The claims of a genuine token that has not expired at `now` (milliseconds on the host's clock).
    ///
    /// - Throws: ``MoneiError/invalidToken`` for anything not signed by this host's region,
    ///   ``MoneiError/tokenExpired`` for a genuine token past its `exp`.
    func verify(_ token: String, at now: Int64) throws(MoneiError) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 4096, parts.count == 3,
            let mac = try? Base64.decode(parts[2]),
            key.isValid(mac, message: Array((region + "." + parts[0] + "." + parts[1]).utf8)),
            let body = try? Base64.decodeData(parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: body)
        else { throw .invalidToken }
        guard now < claims.exp * 1000 else { throw .tokenExpired }
        return claims
    }
}
