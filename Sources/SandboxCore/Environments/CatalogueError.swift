/// Why an environment catalogue was refused, as one line a tester can act on.
///
/// The description always reads `<file name>: <path.to.field>: <what is wrong>`, where the
/// path uses the JSON's own names and indexes and `(root)` stands for the whole document:
///
/// ```text
/// environments.json: regions[3].currency: "EURO" is not an ISO 4217 currency code
/// environments.json: regions[0].flavours.prod.sessionLengthSeconds: must be a positive number of seconds
/// environments.json: (root): not valid JSON: unexpected end of file
/// ```
public struct CatalogueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of problem, for code that reacts differently to an unreadable file.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unreadable, notJSON, missing, wrongType, invalid
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The file could not be read at all.
        public static let unreadable = Code(.unreadable)
        /// The bytes are not JSON.
        public static let notJSON = Code(.notJSON)
        /// A required field is absent.
        public static let missing = Code(.missing)
        /// A field holds the wrong JSON type (or null where a value is required).
        public static let wrongType = Code(.wrongType)
        /// A field is well typed but breaks a rule (unknown code, duplicate id, bad host …).
        public static let invalid = Code(.invalid)

        public var description: String { base.rawValue }
    }

    /// What kind of problem this is.
    public let code: Code
    /// The file's name (not its full path), e.g. `environments.json`.
    public let file: String
    /// The field, e.g. `regions[3].currency`, or `(root)`.
    public let path: String
    /// What is wrong with it.
    public let reason: String

    public init(code: Code, file: String, path: String, reason: String) {
        self.code = code
        self.file = file
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(file): \(path): \(reason)" }
}
