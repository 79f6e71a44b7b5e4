#if !canImport(CryptoKit)
internal import COpenSSL

extension SecureRandom {
    /// `count` bytes from `RAND_bytes`.
    static func engineBytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            // RAND_bytes takes an `int` length, so fill very large requests in chunks.
            var offset = 0
            while offset < buffer.count {
                let chunk = min(buffer.count - offset, Int(Int32.max))
                let status = RAND_bytes(buffer.baseAddress! + offset, Int32(chunk))
                precondition(status == 1, "\(OpenSSL.lastError("RAND_bytes"))")
                offset += chunk
            }
        }
        return bytes
    }
}
#endif
