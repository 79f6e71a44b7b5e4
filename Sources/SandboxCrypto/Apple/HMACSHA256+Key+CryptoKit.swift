#if canImport(CryptoKit)
internal import CryptoKit
import Foundation

extension HMACSHA256 {
    /// A CryptoKit MAC in progress; a value, so each message starts from a copy of the keyed state.
    struct MessageState {
        var mac: HMAC<CryptoKit.SHA256>
    }

    /// A CryptoKit `HMAC` keyed once: each MAC starts from a copy of it.
    final class KeyEngine: Sendable {
        private let keyed: MessageState

        init(_ key: some DataProtocol) {
            keyed = MessageState(mac: HMAC<CryptoKit.SHA256>(key: SymmetricKey(data: Array(key))))
        }

        func start() -> MessageState { keyed }

        static func update(_ state: inout MessageState, with bytes: UnsafeRawBufferPointer) {
            state.mac.update(data: bytes)
        }

        func finish(_ state: inout MessageState) -> AuthenticationCode {
            var code = AuthenticationCode()
            let mac = state.mac.finalize()
            code.withUnsafeMutableBytes { output in
                mac.withUnsafeBytes { output.copyMemory(from: $0) }
            }
            return code
        }

        func abandon(_ state: inout MessageState) {}
    }
}

// The keyed state is only ever copied, never mutated, once made.
extension HMACSHA256.MessageState: @unchecked Sendable {}
#endif
