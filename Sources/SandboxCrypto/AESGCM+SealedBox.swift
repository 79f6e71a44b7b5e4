extension AESGCM {
    /// The result of ``AESGCM/seal(_:key:nonce:associatedData:)``: nonce, ciphertext and tag.
    ///
    /// To send it as one value use ``combined`` (`nonce ‖ ciphertext ‖ tag`, the layout
    /// CryptoKit uses too) and rebuild it with ``init(combined:)``.
    ///
    /// ```swift
    /// let wire = Base64.encode(box.combined)
    /// let received = try AESGCM.SealedBox(combined: try Base64.decode(wire))
    /// ```
    public struct SealedBox: Hashable, Sendable {
        /// The 12-byte nonce the box was sealed with.
        public let nonce: [UInt8]
        /// The encrypted bytes, as long as the plaintext.
        public let ciphertext: [UInt8]
        /// The 16-byte authentication tag.
        public let tag: [UInt8]

        /// A box from its parts, for example read from separate JSON fields.
        ///
        /// - Parameters:
        ///   - nonce: 12 bytes.
        ///   - ciphertext: Any length.
        ///   - tag: 16 bytes.
        /// - Throws: ``CryptoError/invalidNonceSize`` or ``CryptoError/invalidSealedBox``
        ///   when a part has the wrong length.
        public init(nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) throws {
            guard nonce.count == AESGCM.nonceByteCount else { throw CryptoError.invalidNonceSize }
            guard tag.count == AESGCM.tagByteCount else { throw CryptoError.invalidSealedBox }
            self.init(uncheckedNonce: nonce, ciphertext: ciphertext, tag: tag)
        }

        /// A box from its ``combined`` form, `nonce ‖ ciphertext ‖ tag`.
        ///
        /// - Parameter combined: At least 28 bytes.
        /// - Throws: ``CryptoError/invalidSealedBox`` when shorter than nonce plus tag.
        public init(combined: [UInt8]) throws {
            guard combined.count >= AESGCM.nonceByteCount + AESGCM.tagByteCount else {
                throw CryptoError.invalidSealedBox
            }
            let tagStart = combined.count - AESGCM.tagByteCount
            self.init(
                uncheckedNonce: Array(combined[..<AESGCM.nonceByteCount]),
                ciphertext: Array(combined[AESGCM.nonceByteCount..<tagStart]),
                tag: Array(combined[tagStart...])
            )
        }

        init(uncheckedNonce nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) {
            self.nonce = nonce
            self.ciphertext = ciphertext
            self.tag = tag
        }

        /// `nonce ‖ ciphertext ‖ tag` in one array.
        public var combined: [UInt8] {
            nonce + ciphertext + tag
        }
    }
}
