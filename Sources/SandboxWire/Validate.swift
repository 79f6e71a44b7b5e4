/// The checks of the values clients send that every service shares, each failure a ``FieldError``
/// naming the field; a service adds its own in an extension (the host's PIN and e-mail, the
/// wallet's order).
///
/// ```swift
/// let terminal = try Validate.identifier(request.parameter("terminalId"), field: "terminalId")
/// ```
package enum Validate {
    /// An identifier from a path or body (terminal, merchant, order): short and plain, else it cannot exist.
    package static func identifier(_ value: String, field: String) throws(FieldError) -> String {
        guard PlainIdentifier.isValid(value) else {
            throw FieldError("\(field) must be 1 to 64 letters, digits, '.', '_' or '-'.", field: field)
        }
        return value
    }

    /// Text for people (a merchant's name, a reference): 1 to `limit` characters, no control characters.
    package static func text(_ value: String, field: String, limit: Int) throws(FieldError) -> String {
        guard (1...limit).contains(value.count), !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw FieldError("\(field) must be 1 to \(limit) characters with no control characters.", field: field)
        }
        return value
    }

    /// An amount in minor units, from 1 to 999,999,999,999.
    package static func amount(_ value: Int, field: String = "amount") throws(FieldError) {
        guard (1...999_999_999_999).contains(value) else {
            throw FieldError(
                "\(field) must be a whole number of minor units from 1 to 999999999999.", field: field, code: .invalidAmount)
        }
    }
}

/// A refusal of a request's shape: 400 with its code (`invalid_request` unless told) naming the
/// field; what ``Validate`` throws.
package struct FieldError: ServiceError, Equatable {
    package let status = 400
    package let code: ErrorCode
    package let message: String
    package let field: String?

    package init(_ message: String, field: String, code: ErrorCode = .invalidRequest) {
        self.code = code
        self.message = message
        self.field = field
    }

    package static func invalidRequest(_ message: String, field: String) -> FieldError {
        FieldError(message, field: field)
    }
}
