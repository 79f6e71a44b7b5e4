import Foundation
import Testing

/// One edit that breaks a small valid payment data document, and the one line the loader
/// must answer.
struct BrokenDocument: Sendable, CustomTestStringConvertible {
    /// Text of the valid document to replace (nil: replace the whole document).
    let original: String?
    let replacement: String
    let message: String

    var testDescription: String { message }

    /// Replaces `original`, which must occur in the valid document.
    init(_ original: String, _ replacement: String, _ message: String) {
        self.original = original
        self.replacement = replacement
        self.message = message
    }

    /// Uses `document` instead of the valid one.
    init(document: String, _ message: String) {
        original = nil
        replacement = document
        self.message = message
    }

    func apply(to document: String) throws -> Data {
        guard let original else { return Data(replacement.utf8) }
        let range = try #require(document.range(of: original), "mutation target not in the document: \(original)")
        return Data(document.replacingCharacters(in: range, with: replacement).utf8)
    }
}
