import Foundation

/// AES-256-GCM authenticated encryption: OpenSSL's `EVP_CIPHER_CTX` on Linux, CryptoKit's `AES.GCM`
/// on Apple platforms. Both give the same bytes for the same key, nonce and input.
///
/// The simulated reader seals card data with the region key; the host opens it. GCM both
/// hides the plaintext and authenticates it together with the *associated data* (for example
/// the terminal ID and timestamp, sent in clear): changing any byte of the ciphertext, tag,
/// nonce or associated data, or using another key, makes ``open(_:key:associatedData:)``
/// throw ``CryptoError/authenticationFailure``.
///
/// ```swift
/// let key = SecureRandom.bytes(count: AESGCM.keyByteCount)
/// let box = try AESGCM.seal(Array(#"{"pan":"4111…"}"#.utf8), key: key, associatedData: Array("T-0001".utf8))
/// let payload = Base64.encode(box.combined)
/// // … on the host:
/// let opened = try AESGCM.open(try AESGCM.SealedBox(combined: Base64.decode(payload)),
///                              key: key, associatedData: Array("T-0001".utf8))
/// ```
///
/// A nonce must never be reused with the same key; leave `nonce` `nil` to get a fresh random
/// one, and pass one only for known-answer tests or a deterministic source in tests.
public enum AESGCM {
    /// Key length: 32 bytes (AES-256).
    public static let keyByteCount = 32
    /// Nonce length: 12 bytes, the size GCM is designed for.
    public static let nonceByteCount = 12
    /// Authentication tag length: 16 bytes, the full tag.
    public static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`, and authenticates `associatedData`.
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to hide; may be empty.
    ///   - key: A 32-byte key.
    ///   - nonce: A 12-byte nonce, or `nil` (default) for a random one from ``SecureRandom``.
    ///   - associatedData: Bytes authenticated but not encrypted; empty by default.
    /// - Returns: The nonce, the ciphertext (as long as the plaintext) and the 16-byte tag.
    /// - Throws: ``CryptoError/invalidKeySize`` or ``CryptoError/invalidNonceSize`` for wrong
    ///   lengths, ``CryptoError/libraryFailure`` if the platform's library fails.
    public static func seal(
        _ plaintext: some DataProtocol,
        key: some DataProtocol,
        nonce: [UInt8]? = nil,
        associatedData: some DataProtocol = [UInt8]()
    ) throws -> SealedBox {
        guard key.count == keyByteCount else { throw CryptoError.invalidKeySize }
        let nonce = nonce ?? SecureRandom.bytes(count: nonceByteCount)
        guard nonce.count == nonceByteCount else { throw CryptoError.invalidNonceSize }

        let (ciphertext, tag) = try engineSeal(plaintext, key: key, nonce: nonce, associatedData: associatedData)
        return SealedBox(uncheckedNonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// Checks the tag of `box` and returns its plaintext.
    ///
    /// No plaintext is returned unless the whole box and the associated data are authentic.
    ///
    /// - Parameters:
    ///   - box: What ``seal(_:key:nonce:associatedData:)`` produced.
    ///   - key: The same 32-byte key.
    ///   - associatedData: The same associated data; empty by default.
    /// - Returns: The original plaintext.
    /// - Throws: ``CryptoError/authenticationFailure`` when anything was changed or the key
    ///   or associated data differ; ``CryptoError/invalidKeySize`` for a wrong key length.
    public static func open(
        _ box: SealedBox,
        key: some DataProtocol,
        associatedData: some DataProtocol = [UInt8]()
    ) throws -> [UInt8] {
        guard key.count == keyByteCount else { throw CryptoError.invalidKeySize }

        return try engineOpen(box, key: key, associatedData: associatedData)
    }
}
