import HostStorage
import SandboxWire
import WebhookSignature

/// `Wallet-Signature` of the host↔wallet protocol (docs/qr-payments.md, "Host and wallet"): the
/// MONEI scheme of the `WebhookSignature` library under the wallet's own header name, keyed with
/// the region's secret from `sandbox-data/wallet.json`, dated in real time.
package enum WalletSignature {
    /// The `Wallet-Signature` value for `body` signed at `timestamp` (Unix seconds).
    package static func value(body: [UInt8], secret: String, timestamp: Int) -> String {
        // The MONEI scheme never throws (only a Standard Webhooks secret can be malformed).
        let headers = (try? WebhookSigner.headers(scheme: .monei, id: "", timestamp: timestamp, body: body, secret: secret)) ?? []
        return headers.first?.value ?? ""
    }

    /// Checks a request of the wallet: it names this host's region and carries a signature of its
    /// body by the region's secret, made within 300 s of `now` (Unix seconds).
    ///
    /// - Throws: `provider_signature_invalid` (401), whose message says what was wrong.
    package static func verify(headers: [String: String], body: [UInt8], region: String, secret: String?, now: Int) throws(PaymentError) {
        guard let named = headers[WalletProvider.regionHeader.lowercased()] else {
            throw PaymentError.providerSignatureInvalid("The request names no region in \(WalletProvider.regionHeader).")
        }
        guard named == region else {
            throw PaymentError.providerSignatureInvalid("This host serves region \(region), not \(named).")
        }
        guard let secret else { throw PaymentError.providerSignatureInvalid("This host has no wallet secret for region \(region).") }
        guard let signature = headers[WalletProvider.signatureHeader.lowercased()] else {
            throw PaymentError.providerSignatureInvalid("The request carries no \(WalletProvider.signatureHeader) header.")
        }
        do {
            try WebhookVerifier.verify(scheme: .monei, headers: ["MONEI-Signature": signature], body: body, secret: secret, now: now)
        } catch {
            throw PaymentError.providerSignatureInvalid("\(WalletProvider.signatureHeader) does not verify: \(error.reason).")
        }
    }
}
