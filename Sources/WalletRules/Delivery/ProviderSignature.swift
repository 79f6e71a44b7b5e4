import WalletStorage
import Foundation
import SandboxWire
import WebhookSignature

/// The `Wallet-Signature` of host↔wallet requests: the MONEI scheme of the `WebhookSignature`
/// library (`t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`) under the wallet's header
/// name, with the secret of the `Wallet-Region` the request names.
public enum ProviderSignature {
    /// The headers that sign `body` for `region`, at `timestamp` (real Unix seconds).
    public static func headers(region: String, secret: String, body: [UInt8], timestamp: Int) -> [(String, String)] {
        // The MONEI scheme needs no id and cannot fail on a secret.
        let signed = (try? WebhookSigner.headers(scheme: .monei, id: "", timestamp: timestamp, body: body, secret: secret)) ?? []
        return [(WalletProvider.regionHeader, region)] + signed.map { (WalletProvider.signatureHeader, $0.value) }
    }

    /// The region whose secret signed the request.
    ///
    /// - Throws: ``WalletError`` `provider_signature_invalid` (401) when `Wallet-Region` is missing
    ///   or unknown, or `Wallet-Signature` is missing, malformed, does not match, or is older (or
    ///   newer) than 300 s.
    ///
    /// - Parameter header: the request's header of a name (any case).
    package static func verify(header: (String) -> String?, body: [UInt8], secrets: [String: String], now: Int) throws -> String {
        guard let region = header(WalletProvider.regionHeader), !region.isEmpty else {
            throw WalletError.signatureInvalid("the Wallet-Region header is missing.", field: "header.Wallet-Region")
        }
        guard let secret = secrets[region] else {
            throw WalletError.signatureInvalid("the wallet knows no region '\(region.prefix(64))'.", field: "header.Wallet-Region")
        }
        guard let signature = header(WalletProvider.signatureHeader) else {
            throw WalletError.signatureInvalid("the Wallet-Signature header is missing.")
        }
        do {
            try WebhookVerifier.verify(scheme: .monei, headers: ["monei-signature": signature], body: body, secret: secret, now: now)
        } catch {
            switch error {
            case .timestampOutsideTolerance: throw WalletError.signatureInvalid("its timestamp is more than 300 s away from the wallet's time.")
            case .noMatchingSignature: throw WalletError.signatureInvalid("it does not match the body and the secret of \(region).")
            default: throw WalletError.signatureInvalid("it is not t=<unix seconds>,v1=<hex>.")
            }
        }
        return region
    }
}
