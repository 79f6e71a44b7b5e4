/// The languages of the screens the SDK manages (seed `TapOnMobileLanguage`); English when none is set.
///
/// ```swift
/// _ = TapOnMobile.shared.updateLanguage(language: .polish)
/// ```
public enum TapOnMobileLanguage: String, CaseIterable, Sendable, Codable {
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
}
