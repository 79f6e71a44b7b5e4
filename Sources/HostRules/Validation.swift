import HostStorage
import SandboxWire

/// Checks of the values clients send; each failure names its field.
package enum Validate {
    package static func deviceID(_ value: String, field: String = "deviceId") throws(FieldError) -> String {
        guard PlainIdentifier.isValid(value) else {
            throw .invalidRequest("deviceId must be 1 to 64 letters, digits, '.', '_' or '-'.", field: field)
        }
        return value
    }

    package static func deviceModel(_ value: String) throws(FieldError) -> String {
        guard (1...64).contains(value.count), value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw .invalidRequest("deviceModel must be 1 to 64 printable characters.", field: "deviceModel")
        }
        return value
    }

    /// A secure code: 4 to 8 digits.
    package static func pin(_ value: String, field: String = "pin") throws(FieldError) -> String {
        guard (4...8).contains(value.utf8.count), value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .invalidRequest("The secure code must be 4 to 8 digits.", field: field)
        }
        return value
    }

    package static func email(_ value: String) throws(FieldError) -> String {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard value.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else { throw .invalidRequest("'\(value)' is not an e-mail address.", field: "email") }
        return value
    }

    /// An identifier from a path or body (terminal, merchant): short and plain, else it cannot exist.
    package static func identifier(_ value: String, field: String) throws(FieldError) -> String {
        guard PlainIdentifier.isValid(value) else {
            throw .invalidRequest("\(field) must be 1 to 64 letters, digits, '.', '_' or '-'.", field: field)
        }
        return value
    }
}

/// A refusal of a request's shape (400 `invalid_request` naming the field), shared by every
/// surface of the host: the checks of ``Validate``.
package struct FieldError: ServiceError, Equatable {
    package let status = 400
    package let code = ErrorCode.invalidRequest
    package let message: String
    package let field: String?

    package static func invalidRequest(_ message: String, field: String) -> FieldError {
        FieldError(message: message, field: field)
    }
}
