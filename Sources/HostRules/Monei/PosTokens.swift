import HostStorage
import Foundation

/// The POS tokens of the MONEI host: what `POST /v1/pos/auth-token` issues to a merchant's backend
/// and the device presents as `Authorization: Bearer <token>`.
///
/// A ``SignedTokens`` token, valid for 24 hours on the host's clock: moving `/_sandbox/clock` a
/// day ahead expires it.
package struct PosTokens: Sendable {
    package static let lifetime: Int64 = 24 * 60 * 60 * 1000

    /// What a token says: whose it is and until when.
    package struct Claims: ExpiringClaims, Equatable {
        /// The account (merchant id).
        package let acc: String
        package let storeId: String
        package let pointOfSaleId: String
        /// Issued and expiring, in seconds since 1970 on the host's clock.
        package let iat: Int64
        package let exp: Int64
        /// The token's own id: no two tokens are the same.
        package let jti: String
    }

    private let tokens: SignedTokens<Claims>

    package init(secret: [UInt8], region: String) {
        tokens = SignedTokens(secret: secret, region: region)
    }

    package func issue(_ claims: Claims) throws -> String { try tokens.issue(claims) }

    /// The claims of a genuine token that has not expired at `now` (milliseconds on the host's clock).
    ///
    /// - Throws: ``MoneiError/invalidToken`` for anything not signed by this host's region,
    ///   ``MoneiError/tokenExpired`` for a genuine token past its `exp`.
    package func verify(_ token: String, at now: Int64) throws(MoneiError) -> Claims {
        do throws(SignedTokens<Claims>.Failure) {
            return try tokens.verify(token, at: now)
        } catch {
            throw error == .expired ? .tokenExpired : .invalidToken
        }
    }
}
