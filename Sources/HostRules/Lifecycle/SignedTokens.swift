import FastJSON
import HostStorage
import Foundation
import SandboxCrypto

/// What a signed token carries: its expiry, in seconds since 1970 on the host's clock.
package protocol ExpiringClaims: Codable, Sendable {
    var exp: Int64 { get }
}

/// Tokens a host issues to a backend and later takes back from a device (MONEI's POS tokens,
/// Geopagos' reader tokens).
///
/// A token is shaped like a JWT (`header.claims.signature`, each base64url) and signed with
/// HMAC-SHA256 under a secret of the host (kept in its database, so tokens survive a restart) over
/// the region's id and the first two parts: a token of another region, or one with a changed
/// claim, is not genuine.
package struct SignedTokens<Claims: ExpiringClaims>: Sendable {
    package static var header: String { #"{"alg":"HS256","typ":"JWT"}"# }

    /// Why a token was refused.
    package enum Failure: Error, Equatable {
        /// Not signed by this host for this region, or not a token at all.
        case invalid
        /// Genuine, and past its `exp`.
        case expired
    }

    private let key: HMACSHA256.Key
    private let region: String

    package init(secret: [UInt8], region: String) {
        key = HMACSHA256.Key(secret)
        self.region = region
    }

    package func issue(_ claims: Claims) throws -> String {
        let signed = Base64.encode(Array(Self.header.utf8), urlSafe: true) + "." + Base64.encode(try SortedJSONEncoder.encode(claims), urlSafe: true)
        return signed + "." + Base64.encode(key.authenticate(Array((region + "." + signed).utf8)), urlSafe: true)
    }

    /// The claims of a genuine token that has not expired at `now` (milliseconds on the host's clock).
    package func verify(_ token: String, at now: Int64) throws(Failure) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 4096, parts.count == 3,
            let mac = try? Base64.decode(parts[2]),
            key.isValid(mac, message: Array((region + "." + parts[0] + "." + parts[1]).utf8)),
            let body = try? Base64.decodeData(parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: body)
        else { throw .invalid }
        guard now < claims.exp * 1000 else { throw .expired }
        return claims
    }
}
