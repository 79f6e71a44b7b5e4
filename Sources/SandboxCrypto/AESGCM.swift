#if canImport(COpenSSL)
internal import COpenSSL
import Foundation

/// AES-256-GCM authenticated encryption, through OpenSSL's `EVP_CIPHER_CTX`.
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
    ///   lengths, ``CryptoError/libraryFailure`` if OpenSSL fails.
    public static func seal(
        _ plaintext: some DataProtocol,
        key: some DataProtocol,
        nonce: [UInt8]? = nil,
        associatedData: some DataProtocol = [UInt8]()
    ) throws -> SealedBox {
        guard key.count == keyByteCount else { throw CryptoError.invalidKeySize }
        let nonce = nonce ?? SecureRandom.bytes(count: nonceByteCount)
        guard nonce.count == nonceByteCount else { throw CryptoError.invalidNonceSize }

        let context = try CipherContext()
        try context.start(encrypting: true, key: key, nonce: nonce)
        try context.authenticate(associatedData)
        var ciphertext = try context.update(plaintext)
        ciphertext += try context.finish(encrypting: true)
        let tag = try context.tag()
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

        let context = try CipherContext()
        try context.start(encrypting: false, key: key, nonce: box.nonce)
        try context.authenticate(associatedData)
        var plaintext = try context.update(box.ciphertext)
        try context.setExpectedTag(box.tag)
        plaintext += try context.finish(encrypting: false)
        return plaintext
    }
}

/// Owns one `EVP_CIPHER_CTX` configured for AES-256-GCM and frees it in `deinit`.
///
/// One context serves one seal or one open; it is never shared between threads.
private final class CipherContext {
    private let handle: OpaquePointer

    /// OpenSSL's update functions take an `int` length, so long inputs go in slices.
    private static let chunkSize = 1 << 30

    init() throws {
        guard let handle = EVP_CIPHER_CTX_new() else { throw OpenSSL.lastError("EVP_CIPHER_CTX_new") }
        self.handle = handle
    }

    deinit {
        EVP_CIPHER_CTX_free(handle)
    }

    func start(encrypting: Bool, key: some DataProtocol, nonce: [UInt8]) throws {
        let initialize = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
        // First choose the cipher and the nonce length, then give the key and nonce.
        guard initialize(handle, OpenSSL.aes256GCM, nil, nil, nil) == 1 else {
            throw OpenSSL.lastError("EVP_CipherInit_ex(AES-256-GCM)")
        }
        guard EVP_CIPHER_CTX_ctrl(handle, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1 else {
            throw OpenSSL.lastError("EVP_CTRL_GCM_SET_IVLEN")
        }
        let status = OpenSSL.withBytes(key) { keyBytes in
            nonce.withUnsafeBufferPointer { nonceBytes in
                initialize(
                    handle, nil, nil,
                    keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    nonceBytes.baseAddress
                )
            }
        }
        guard status == 1 else { throw OpenSSL.lastError("EVP_CipherInit_ex(key, nonce)") }
    }

    /// Feeds associated data: authenticated, not encrypted, no output.
    func authenticate(_ associatedData: some DataProtocol) throws {
        guard !associatedData.isEmpty else { return }
        try OpenSSL.withBytes(associatedData) { bytes in
            var offset = 0
            while offset < bytes.count {
                let chunk = min(bytes.count - offset, Self.chunkSize)
                var written: Int32 = 0
                let input = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset
                guard EVP_CipherUpdate(handle, nil, &written, input, Int32(chunk)) == 1 else {
                    throw OpenSSL.lastError("EVP_CipherUpdate(associated data)")
                }
                offset += chunk
            }
        }
    }

    /// Encrypts or decrypts `input`; GCM is a stream mode, so output is as long as input.
    func update(_ input: some DataProtocol) throws -> [UInt8] {
        guard !input.isEmpty else { return [] }
        var output = [UInt8](repeating: 0, count: input.count)
        var produced = 0
        try OpenSSL.withBytes(input) { bytes in
            try output.withUnsafeMutableBufferPointer { buffer in
                var offset = 0
                while offset < bytes.count {
                    let chunk = min(bytes.count - offset, Self.chunkSize)
                    var written: Int32 = 0
                    let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset
                    guard EVP_CipherUpdate(handle, buffer.baseAddress! + produced, &written, source, Int32(chunk)) == 1
                    else {
                        throw OpenSSL.lastError("EVP_CipherUpdate")
                    }
                    produced += Int(written)
                    offset += chunk
                }
            }
        }
        precondition(produced == input.count, "AES-GCM produced \(produced) bytes for \(input.count)")
        return output
    }

    /// Completes the operation; for decryption this is where the tag is checked.
    func finish(encrypting: Bool) throws -> [UInt8] {
        // GCM buffers nothing, so final writes no bytes; the buffer is there for the API.
        var output = [UInt8](repeating: 0, count: 16)
        var written: Int32 = 0
        let status = output.withUnsafeMutableBufferPointer { buffer in
            encrypting
                ? EVP_EncryptFinal_ex(handle, buffer.baseAddress, &written)
                : EVP_DecryptFinal_ex(handle, buffer.baseAddress, &written)
        }
        guard status == 1 else {
            if encrypting { throw OpenSSL.lastError("EVP_EncryptFinal_ex") }
            ERR_clear_error()
            throw CryptoError.authenticationFailure
        }
        return Array(output.prefix(Int(written)))
    }

    /// The tag of a finished encryption.
    func tag() throws -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: AESGCM.tagByteCount)
        let status = tag.withUnsafeMutableBytes { buffer in
            EVP_CIPHER_CTX_ctrl(handle, EVP_CTRL_GCM_GET_TAG, Int32(buffer.count), buffer.baseAddress)
        }
        guard status == 1 else { throw OpenSSL.lastError("EVP_CTRL_GCM_GET_TAG") }
        return tag
    }

    /// The tag a decryption must match, given before ``finish(encrypting:)``.
    func setExpectedTag(_ tag: [UInt8]) throws {
        var tag = tag
        let status = tag.withUnsafeMutableBytes { buffer in
            EVP_CIPHER_CTX_ctrl(handle, EVP_CTRL_GCM_SET_TAG, Int32(buffer.count), buffer.baseAddress)
        }
        guard status == 1 else { throw OpenSSL.lastError("EVP_CTRL_GCM_SET_TAG") }
    }
}
#endif
