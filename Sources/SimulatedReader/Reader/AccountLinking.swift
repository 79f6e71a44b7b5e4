/// Why the reader asks the app about account linking (Geopagos `AccountLinkingReason`).
///
/// ```swift
/// let reader = Reader(accountLinking: { reason in
///     switch reason {
///     case .setup: await ui.explainAppleTerms() ? .confirm : .cancel
///     case .deniedByUser: await ui.askToReviewTermsAgain() ? .confirm : .cancel
///     }
/// })
/// ```
public enum AccountLinkingReason: Sendable, Equatable, Hashable {
    /// The merchant account is not linked yet, or the token asked for a relink.
    case setup
    /// The merchant rejected Apple's terms in Apple's sheet.
    case deniedByUser
}

/// The app's answer (Geopagos `AccountLinkingDecision`).
public enum AccountLinkingDecision: Sendable, Equatable, Hashable {
    /// The merchant agreed to see Apple's terms: the sheet is shown.
    case confirm
    /// Stop: the prepare fails with ``ReaderError/accountLinkingCancelled``.
    case cancel
}

/// What the merchant does in Apple's terms sheet, decided by the script
/// (``ReaderScript/termsResponses``).
public enum TermsResponse: Sendable, Equatable, Hashable {
    /// The merchant accepts; the account is linked from now on.
    case accept
    /// The merchant rejects; the app is asked again with ``AccountLinkingReason/deniedByUser``.
    case deny
}
