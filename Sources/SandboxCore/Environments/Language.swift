/// A language the SDK's own screens can be shown in: the seed's `TapOnMobileLanguage` cases.
///
/// The raw value is the case name (`"english"`), which is also how a region lists its
/// languages in `environments.json`. The SDK falls back to English when none is chosen, so
/// every region must offer `english`.
///
/// ```swift
/// Language(rawValue: "czech")   // .czech
/// ```
public enum Language: String, CaseIterable, Codable, Sendable {
    case english
    case dutch
    case french
    case german
    case italian
    case czech
    case polish
    case hungarian
    case slovak
    case slovenian
    case croatian

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let language = Language(rawValue: name) else {
            let known = Language.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(name)\" is not a supported language (one of \(known))")
        }
        self = language
    }
}
