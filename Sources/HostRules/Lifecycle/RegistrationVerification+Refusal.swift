import HostStorage
import SandboxWire

/// The two verify answers the rules give: a code or token that would be accepted, and one
/// refused with the error the next step would give (its code and message, never thrown).
extension RegistrationVerification {
    package static let valid = RegistrationVerification(valid: true, reason: nil, message: nil, terminalId: nil, pinRequired: nil)

    package static func refused(_ error: LifecycleError) -> RegistrationVerification {
        RegistrationVerification(valid: false, reason: error.code.rawValue, message: error.message, terminalId: nil, pinRequired: nil)
    }
}
