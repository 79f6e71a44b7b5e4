import HostStorage
import SandboxWire

/// The throttle around every check of a code or secret a person types (``AttemptThrottle``).
extension Lifecycle {
    /// Who typed a code: the connection's peer address and the device the request names, either
    /// unknown (an in-process request has no address; verify-code names no device).
    package struct Typist: Sendable {
        package var address: String?
        package var device: String?

        package init(address: String?, device: String? = nil) {
            self.address = address
            self.device = device
        }

        package var keys: [AttemptThrottle.Key] {
            [address.map { .address($0) }, device.map { .device($0) }].compactMap { $0 }
        }
    }

    /// The refusals that mean "wrong code or secret": what a guess gets. A code that exists but
    /// expired, was used or came from another environment is the owner's mistake, not a guess.
    package static let wrongCodes: Set<ErrorCode> = [
        .backofficeCodeInvalid, .backofficeCodeWrongDevice, .challengeNotFound, .registrationTokenInvalid,
        .registrationWrongDevice, .invalidPin, .secureCodeLocked,
    ]

    /// Runs `check` unless `typist` is locked (then `too_many_attempts` with `Retry-After`), and
    /// counts it against `typist` when it ends with a wrong code: thrown, or a verify answer's
    /// `reason` (``RegistrationVerification``).
    ///
    /// - Throws: ``LifecycleError/tooManyAttempts(retryAfter:)`` while locked, else what `check` throws.
    package func throttled<T>(_ typist: Typist, _ check: () throws -> T) throws -> T {
        let keys = typist.keys
        let now = now()
        if let wait = attempts.wait(keys, at: now) { throw LifecycleError.tooManyAttempts(retryAfter: wait) }
        do {
            let result = try check()
            if let verification = result as? RegistrationVerification, let reason = verification.reason,
                Self.wrongCodes.contains(ErrorCode(rawValue: reason))
            {
                attempts.recordFailure(keys, at: now)
            }
            return result
        } catch let error as LifecycleError where Self.wrongCodes.contains(error.code) {
            attempts.recordFailure(keys, at: now)
            throw error
        }
    }
}
