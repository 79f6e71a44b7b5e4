import HostStorage
import SandboxWire

/// The host's own checks of the values clients send; each failure names its field.
extension Validate {
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
}
