#if canImport(CryptoKit)
internal import CryptoKit
import Foundation

extension AESGCM {
    /// The ciphertext and tag of `plaintext`; key and nonce lengths are already checked.
    static func engineSeal(
        _ plaintext: some DataProtocol, key: some DataProtocol, nonce: [UInt8], associatedData: some DataProtocol
    ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        do {
            let box = try AES.GCM.seal(
                plaintext, using: SymmetricKey(data: Array(key)), nonce: try AES.GCM.Nonce(data: nonce),
                authenticating: associatedData)
            return (Array(box.ciphertext), Array(box.tag))
        } catch {
            throw CryptoError.library(code: 0, message: "AES.GCM.seal failed: \(error)")
        }
    }

    /// The plaintext of `box`, or ``CryptoError/authenticationFailure``; the key length is already checked.
    static func engineOpen(_ box: SealedBox, key: some DataProtocol, associatedData: some DataProtocol) throws -> [UInt8] {
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: box.nonce), ciphertext: box.ciphertext, tag: box.tag)
        } catch {
            throw CryptoError.invalidSealedBox
        }
        do {
            return Array(try AES.GCM.open(sealed, using: SymmetricKey(data: Array(key)), authenticating: associatedData))
        } catch CryptoKitError.authenticationFailure {
            throw CryptoError.authenticationFailure
        } catch {
            throw CryptoError.library(code: 0, message: "AES.GCM.open failed: \(error)")
        }
    }
}
#endif
