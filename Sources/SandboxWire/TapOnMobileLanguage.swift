/// The seed's `TapOnMobileLanguage`: a language the SDK's own screens can be shown in; English
/// when none is set.
///
/// The raw value is the case name (`"english"`), which is also how a region lists its
/// languages in `environments.json`, so every region must offer `english`. Reading an unknown
/// name throws an error that lists the known ones.
///
/// ```swift
/// TapOnMobileLanguage(rawValue: "czech")   // .czech
/// _ = TapOnMobile.shared.updateLanguage(language: .polish)
/// ```
public enum TapOnMobileLanguage: String, CaseIterable, Codable, Sendable {
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
        guard let language = TapOnMobileLanguage(rawValue: name) else {
            let known = TapOnMobileLanguage.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(name)\" is not a supported language (one of \(known))")
        }
        self = language
    }
}
