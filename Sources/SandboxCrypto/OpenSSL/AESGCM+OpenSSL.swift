#if !canImport(CryptoKit)
internal import COpenSSL
import Foundation

extension AESGCM {
    /// The ciphertext and tag of `plaintext`; key and nonce lengths are already checked.
    static func engineSeal(
        _ plaintext: some DataProtocol, key: some DataProtocol, nonce: [UInt8], associatedData: some DataProtocol
    ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        let context = try CipherContext()
        try context.start(encrypting: true, key: key, nonce: nonce)
        try context.authenticate(associatedData)
        var ciphertext = try context.update(plaintext)
        ciphertext += try context.finish(encrypting: true)
        return (ciphertext, try context.tag())
    }

    /// The plaintext of `box`, or ``CryptoError/authenticationFailure``; the key length is already checked.
    static func engineOpen(_ box: SealedBox, key: some DataProtocol, associatedData: some DataProtocol) throws -> [UInt8] {
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
