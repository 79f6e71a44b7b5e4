import HostRules
import HostStorage
import SandboxCrypto
import SandboxHTTP

/// The checks of the route groups, as middleware: a handler of a group never checks a credential
/// itself, it is handed what the check found (the merchant, the session).
extension EnvironmentHost {
    /// The check of every back-office route: the request carries the region's back-office key,
    /// compared in constant time.
    static func backOfficeKey(_ key: String) -> Middleware<Void> {
        let expected = Array(key.utf8)
        return Middleware { request in
            guard let given = bearer(request), ConstantTime.equals(Array(given.utf8), expected) else { throw LifecycleError.unauthorized }
        }
    }

    /// The check of the merchant API: the merchant whose API key the request carries.
    static func merchantKey(_ lifecycle: Lifecycle) -> Middleware<MerchantCaller> {
        Middleware { request in
            guard let key = bearer(request), let merchant = try lifecycle.merchant(apiKey: key) else { throw LifecycleError.unauthorized }
            return MerchantCaller(id: merchant)
        }
    }

    /// The merchant a merchant-API request acts for, as its API key named it.
    struct MerchantCaller: JournalSubject {
        let id: String
        /// The request journal names the merchant of a merchant-API request.
        package var journalSubject: String { id }
    }

    /// The check of the terminal routes a device calls once logged in: its session, from memory
    /// when it is there (after a device's first request), else from the database.
    static func sessionBearer(_ lifecycle: Lifecycle) -> Middleware<Lifecycle.CurrentSession> {
        Middleware(nonBlocking: { request in
            try lifecycle.cachedSession(bearer: bearer(request))
        }, orElse: { request in
            try lifecycle.session(bearer: bearer(request))
        })
    }

    /// The token of `Authorization: Bearer <token>`.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.header("authorization") else { return nil }
        // "Bearer" (any case), one space, the token with spaces and tabs around it trimmed; read
        // as bytes, as this runs on every terminal request.
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, bytes[scheme.count] == UInt8(ascii: " "),
            zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let token = bytes[(scheme.count + 1)...]
        guard let first = token.firstIndex(where: { !blank($0) }), let last = token.lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(decoding: token[first...last], as: UTF8.self)
    }
}

/// A terminal request's journal entry names its terminal.
extension Lifecycle.CurrentSession: JournalSubject {
    package var journalSubject: String { terminal.id }
}
