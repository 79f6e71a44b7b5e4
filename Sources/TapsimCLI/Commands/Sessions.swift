import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// Login, logout, prepare, the terminal, secure code, relink, support number, unregister and
/// the device's status.
enum Sessions {
    static let login = Command(
        "login", "Logs in with the secure code (none on an auto-login terminal); later invocations reuse the session.",
        options: [Opt.pin.help("The secure code chosen at registration.")],
        examples: ["tapsim login --pin 2468"]
    ) { context, options in
        let pin = options[Opt.pin]
        try await context.initialize()
        _ = try await context.sdk.doLogin(pin: pin).value()
        let terminal = try await context.sdk.getTerminalID().value()
        let expires = try await context.sdk.getSessionExpiration().value()
        context.rememberLogin(terminalId: terminal, expiresAtUnix: expires)
        return Report(
            [
                ("loggedIn", true), ("terminalId", .string(terminal)), ("sessionExpiresAt", .string(Format.time(expires))),
                ("sessionExpiresAtUnix", .double(expires)),
            ],
            lines: ["Logged in on \(terminal); the session ends at \(Format.time(expires)) (host clock)."])
    }

    static let logout = Command(
        "logout", "Ends the session; one that already ended, or none at all, counts as logged out.",
        examples: ["tapsim logout && tapsim login --pin 2468   # out, and back in with the secure code", "tapsim --json logout && tapsim login --pin 2468"]
    ) { context, _ in
        try await context.initialize()
        let remembered = context.state.session
        var ended = "Logged out."
        do {
            try await context.resumeSession()
            _ = try await context.sdk.doLogout().value()
        } catch let error as TapOnMobileError {
            switch error {
            case .session(let session) where session.kind == .sessionExpired:
                ended = "The session had already ended"
                    + (remembered.map { " (at \(Format.time($0.expiresAtUnix)), host clock)" } ?? "") + ": nothing left to end."
            case .session(let session) where session.kind == .sessionError:
                ended = "Not logged in: nothing to end."
            default:
                throw error
            }
        }
        context.forgetSession()
        return Report([("loggedOut", true), ("sessionWasActive", .bool(ended == "Logged out."))], lines: [ended])
    }

    static let prepare = Command(
        "prepare",
        "Prepares the reader (0-100 %: a bar on a terminal, lines otherwise); later invocations prepare it again by themselves.",
        examples: ["tapsim prepare"]
    ) { context, _ in
        try await context.initialize()
        try await context.resumeSession()
        let bar = ProgressBar(style: .detect(json: context.json), label: "Preparing the reader")
        let listener = ProgressListener(bar)
        context.sdk.addPrepareDeviceListener(listener)
        let result = await context.sdk.prepareDeviceAndWait()
        context.sdk.removePrepareDeviceListener(listener)
        bar.finish()
        _ = try result.value()
        let terminal = try await context.sdk.getTerminalID().value()
        context.updateState { $0.prepared = .init(terminalId: terminal) }
        let percentage = context.sdk.getPrepareDevicePercentage()
        return Report(
            [("prepared", true), ("percentage", .int(percentage)), ("terminalId", .string(terminal))],
            lines: ["The reader is ready (\(percentage) %)."])
    }

    static let terminalInfo = Command(
        "terminal-info", "Shows the terminal's configuration: merchant, currency, limits, tips, refunds, APMs.",
        examples: ["tapsim terminal-info", "tapsim --json terminal-info"]
    ) { context, _ in
        try await context.initialize()
        try await context.resumeSession()
        let info = try await context.sdk.getTerminalInfo().value()
        let initInfo = try await context.sdk.getInfoInit().value()
        let properties = info.dynamicProperties
        // The app asks for a reference when enabled; then one given must match the pattern, if any.
        let pattern = properties.referenceEnabled ? properties.referencePattern : nil
        let reference =
            (properties.referenceEnabled ? "asked for" : "optional")
            + (pattern.map { ", must match \($0)" } ?? ", any text up to 50 characters")
        var lines = [
            "Terminal \(info.terminalId) of \(info.merchantName) (\(info.merchantId)), \(info.address1), \(info.address2)",
            "  currency     \(info.currency.code) (\(info.currency.name)), limit \(Format.amount(info.limitAmount, info.currency))",
            "  refunds      \(info.isRefundAvailable ? "yes" : "no"), reversals \(info.isReversalAvailable ? "yes" : "no")",
            "  tips         \(info.tipEnabled ? "yes" : "no")"
                + (info.tipEnabled ? ", rates \(properties.rates.map { "\($0) %" }.joined(separator: ", "))" : ""),
            "  reference    \(reference)",
            "  auto-login   \(initInfo.isAutoLoginEnabled ? "yes (login without --pin)" : "no (login --pin PIN)")",
            "  code         \(info.terminalCode ?? "none")",
            "  profile      \(info.profileId)",
        ]
        if info.apmEnabled {
            lines.append("  APMs         " + info.apmConfig.map { $0.brandName.description }.joined(separator: ", "))
        }
        if let countries = info.permittedCountries { lines.append("  countries    " + countries.joined(separator: ", ")) }
        return Report(
            [("terminal", JSONValue(encoding: info)), ("infoInit", JSONValue(encoding: initInfo))], lines: lines)
    }

    static let infoInit = Command(
        "info-init", "Shows whether the terminal logs in without a secure code, and how a device may be registered on it.",
        examples: ["tapsim info-init", "tapsim --field infoInit.isAutoLoginEnabled info-init"]
    ) { context, _ in
        try await context.initialize()
        try await context.resumeSession()
        let info = try await context.sdk.getInfoInit().value()
        return Report(
            [("infoInit", JSONValue(encoding: info))],
            lines: [
                "Auto-login    \(info.isAutoLoginEnabled ? "yes: login needs no secure code" : "no: login --pin PIN")",
                "Registration  \(info.registerOptions.map(\.rawValue).joined(separator: ", "))",
            ])
    }

    static let secretCode = Command(
        "secret-code", "Changes the secure code (a wrong old code counts towards the lock).",
        options: [
            Opt.old.help("The secure code in use."),
            Opt.new.help("The new secure code, 4 to 8 digits."),
        ],
        examples: ["tapsim secret-code --old 2468 --new 1357", "tapsim secret-code --old 1357 --new 2468   # and back"]
    ) { context, options in
        guard let old = options[Opt.old] else { throw UsageError("--old PIN is required") }
        guard let new = options[Opt.new] else { throw UsageError("--new PIN is required") }
        try await context.initialize()
        try await context.resumeSession()
        _ = try await context.sdk.updateSecretCode(oldSecretCode: old, newSecretCode: new).value()
        return Report(
            [("secretCodeUpdated", true)], lines: ["Secure code changed: log in with --pin \(new) from now on."])
    }

    static let relink = Command(
        "relink", "Signs Apple's Tap to Pay terms again for the terminal's merchant (the reader shows them at once when prepared).",
        examples: ["tapsim relink", "tapsim prepare && tapsim relink"]
    ) { context, _ in
        try await context.initialize()
        try await context.resumeSession()
        try await context.resumeReader()
        _ = try await context.sdk.relinkAccount().value()
        let prepared = context.state.prepared != nil
        return Report(
            [("relinked", true)],
            lines: [
                prepared
                    ? "Relinked: the merchant accepted Apple's terms on the reader."
                    : "Relinked: the reader shows Apple's terms at the next 'tapsim prepare'."
            ])
    }

    static let support = Command(
        "support", "Shows the device's support number (SN- and 8 digits), the same for every call on this installation.",
        examples: ["tapsim support", "tapsim --field supportNumber support"]
    ) { context, _ in
        try await context.initialize()
        let number = try await context.sdk.loadSupportNumber().value()
        return Report([("supportNumber", .string(number))], lines: ["Support number: \(number)"])
    }

    static let unregister = Command(
        "unregister", "Unregisters the device: the host frees the terminal, the device forgets it.",
        examples: ["tapsim unregister"]
    ) { context, _ in
        try await context.initialize()
        let terminal = try? await context.sdk.getTerminalID().value()
        _ = try await context.sdk.unregister().value()
        context.forgetSession()
        return Report(
            [("unregistered", true), ("terminalId", JSONValue(terminal))],
            lines: ["Unregistered" + (terminal.map { " from \($0)" } ?? "") + "."])
    }

    static let status = Command(
        "status", "Shows the device: environment, host, registration, session, reader.",
        examples: ["tapsim status", "tapsim --env MBANK --json status"]
    ) { context, _ in
        try await context.initialize()
        let sdk = context.sdk
        let registered = try await sdk.isDeviceRegistered().value()
        let terminal = registered ? try? await sdk.getTerminalID().value() : nil
        if !registered, context.state.session != nil || context.state.prepared != nil { context.forgetSession() }
        let session = context.state.session
        var sessionActive = false
        if let session {
            let now = await context.hostTime() ?? Date().timeIntervalSince1970
            sessionActive = now < session.expiresAtUnix
        }
        let version = try await sdk.getSDKVersion().value()
        let fields: [(String, JSONValue)] = [
            ("environment", .string(context.environment.rawValue)), ("region", .string(context.region)),
            ("host", .string(context.host.absoluteString)), ("deviceDirectory", .string(context.deviceDirectory.path)),
            ("registered", .bool(registered)), ("terminalId", JSONValue(terminal)), ("loggedIn", .bool(sessionActive)),
            ("sessionExpiresAt", JSONValue(session.map { Format.time($0.expiresAtUnix) })),
            ("prepared", .bool(context.state.prepared != nil && sessionActive)), ("sdkVersion", .string(version)),
            ("tapToPaySupported", .bool(sdk.isTapToPaySupported())),
        ]
        var lines = [
            "Environment  \(context.environment.rawValue) at \(context.host.absoluteString)",
            "Device       \(context.deviceDirectory.path) (SDK \(version))",
        ]
        if registered, let terminal {
            lines.append("Registered   yes, terminal \(terminal)")
            if let session {
                lines.append(
                    "Session      " + (sessionActive ? "logged in until \(Format.time(session.expiresAtUnix))" : "ended at \(Format.time(session.expiresAtUnix))"))
            } else {
                lines.append("Session      not logged in")
            }
            lines.append("Reader       " + (context.state.prepared != nil && sessionActive ? "prepared" : "not prepared"))
        } else {
            lines.append("Registered   no (tapsim register quick --pin PIN)")
        }
        return Report(fields, lines: lines)
    }
}

/// Passes `prepareDevice()`'s percentages to a progress bar.
final class ProgressListener: PrepareDeviceListener, @unchecked Sendable {
    let bar: ProgressBar

    init(_ bar: ProgressBar) {
        self.bar = bar
    }

    func onPercentageUpdated(percentage: Int) { bar.update(percentage) }
    func onCompleted() { bar.update(100) }
    func onError(error: TapOnMobileError) {}
}
