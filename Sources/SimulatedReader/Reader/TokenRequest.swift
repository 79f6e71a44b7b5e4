/// Why the reader asks the app for a token (Geopagos `TokenRequestReason`).
///
/// ```swift
/// let reader = Reader(tokenProvider: { reason in
///     switch reason {
///     case .setup: .provide(await backend.readerToken(), requiresRelink: false)
///     case .rejected(.expired): .provide(await backend.renewReaderToken(), requiresRelink: false)
///     case .rejected(.invalid): .cancel
///     }
/// })
/// ```
public enum TokenRequestReason: Sendable, Equatable, Hashable {
    /// The first connection, or the first after ``Reader/clear()``.
    case setup
    /// Apple refused the token supplied last.
    case rejected(TokenRejection)
}

/// Why Apple refused a token.
public enum TokenRejection: Sendable, Equatable, Hashable {
    /// The token has expired.
    case expired
    /// The token is not valid; the string says why.
    case invalid(String)
}

/// The app's answer to a token request (Geopagos `TokenRequest`).
public enum TokenRequest: Sendable, Equatable, Hashable {
    /// Use this token; `requiresRelink` forces the merchant through account linking again.
    case provide(String, requiresRelink: Bool)
    /// No token: the connection flow stops with ``ReaderError/tokenCancelled``.
    case cancel
}

/// What Apple says about a supplied token, decided by the script (``ReaderScript/tokenVerdicts``).
public enum TokenVerdict: Sendable, Equatable, Hashable {
    /// The token is accepted.
    case valid
    /// The token has expired: the reader asks again with `.rejected(.expired)`.
    case expired
    /// The token is invalid: the reader asks again with `.rejected(.invalid(reason))`.
    case invalid(String)
}
