import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// `register begin|confirm|end|issue|token|quick`: the SDK's two registrations, and the merchant's
/// part of each (the portal's confirmation, the backend's token) played through the back office.
enum Registration {
    static let pinOption = Opt.pin.help("The secure code to log in with, 4 to 8 digits (none on an auto-login terminal).")

    static let begin = Command(
        "register begin", "Starts a portal registration: prints the challenge code to confirm in the merchant portal.",
        examples: ["tapsim register begin", "tapsim --json register begin"]
    ) { context, _ in
        try await context.initialize()
        let challenge = try await context.sdk.beginRegistration().value()
        context.updateState { $0.challengeCode = challenge }
        return Report(
            [("challengeCode", .string(challenge))],
            lines: [
                "Challenge code: \(challenge)",
                "Confirm it in the merchant portal (or: tapsim register confirm), then: tapsim register end --backoffice-code CODE --pin PIN",
            ])
    }

    static let confirm = Command(
        "register confirm",
        "Plays the merchant in the portal: confirms the challenge code in the region's back office (key from merchants.json) and prints the back-office code.",
        options: [
            Opt.challenge.help("The challenge code (default: the one this device's last 'register begin' printed)."),
            Opt.terminal.help("The terminal to register on (default: the first free one that allows portal registration)."),
        ],
        examples: ["tapsim register begin && tapsim register confirm", "tapsim register begin && tapsim register confirm --terminal EU-T0203"]
    ) { context, options in
        guard let challenge = options[Opt.challenge] ?? context.state.challengeCode else {
            throw UsageError("--challenge CODE is required: this device has begun no registration ('tapsim register begin')")
        }
        let data = try context.sandboxData().region(context.region)
        let confirmation = try await confirm(context, data, challenge: challenge, terminal: options[Opt.terminal])
        return Report(
            [
                ("challengeCode", .string(challenge)), ("backofficeCode", .string(confirmation.backofficeCode)),
                ("terminalId", .string(confirmation.terminalId)),
            ],
            lines: [
                "Back-office code for \(confirmation.terminalId): \(confirmation.backofficeCode)",
                "Then: tapsim register end --backoffice-code \(confirmation.backofficeCode) --pin PIN",
            ])
    }

    static let end = Command(
        "register end", "Completes a portal registration with the back-office code and the secure code.",
        options: [
            Opt.backofficeCode.help("The code the portal gave for this device's challenge (EU-483920)."),
            pinOption,
        ],
        examples: [
            #"tapsim register begin && tapsim register end --backoffice-code "$(tapsim --field backofficeCode register confirm)" --pin 2468"#
        ]
    ) { context, options in
        let code = try options.required(Opt.backofficeCode)
        let pin = options[Opt.pin]
        try await context.initialize()
        _ = try await context.sdk.endRegistration(backofficeCode: code, pin: pin).value()
        return try await registered(context, [("backofficeCode", .string(code))])
    }

    static let issue = Command(
        "register issue",
        "Plays the merchant's backend: asks the region's back office (key from merchants.json) for a registration token and prints it.",
        options: [
            Opt.terminal.help("The terminal the token registers (default: the first free one that allows registration codes)."),
            Opt.email.help("Also mail the token, as a QR link, to this address (the back-office mailbox)."),
        ],
        examples: [
            "tapsim register issue --terminal EU-T0203 --email owner@example.com",
            #"tapsim register revoke --token "$(tapsim --field registrationToken register issue --terminal EU-T0203)""#,
        ]
    ) { context, options in
        let data = try context.sandboxData().region(context.region)
        let backOffice = BackOffice(host: context.host, key: data.backOfficeKey)
        let terminal: String
        if let given = options[Opt.terminal] {
            terminal = given
        } else {
            terminal = try await freeTerminal(backOffice, data, method: "registrationCode")
        }
        let issued = try await backOffice.issueToken(terminalId: terminal, email: options[Opt.email])
        let expiresAt = issued.expiresAt ?? ""
        var lines = ["Registration token for \(issued.terminalId): \(issued.registrationToken) (until \(expiresAt))"]
        if let email = options[Opt.email] { lines.append("Mailed to \(email) (the back-office mailbox).") }
        lines.append("Then: tapsim register token --token \(issued.registrationToken) --pin PIN")
        lines.append("Until then \(issued.terminalId) waits for it; to free it: tapsim register revoke --token \(issued.registrationToken)")
        return Report(
            [
                ("registrationToken", .string(issued.registrationToken)), ("terminalId", .string(issued.terminalId)),
                ("expiresAt", .string(expiresAt)), ("emailedTo", JSONValue(options[Opt.email])),
            ], lines: lines)
    }

    static let revoke = Command(
        "register revoke",
        "Plays the merchant's backend: revokes a registration token nobody registered with; its terminal no longer waits for it.",
        options: [Opt.token.help("The token to revoke (rt_eu_…, from 'register issue' or the portal).")],
        examples: [#"tapsim register revoke --token "$(tapsim --field registrationToken register issue --terminal EU-T0203)""#]
    ) { context, options in
        let token = try options.required(Opt.token)
        let data = try context.sandboxData().region(context.region)
        try await BackOffice(host: context.host, key: data.backOfficeKey).revokeToken(token)
        return Report([("revoked", .string(token))], lines: ["Revoked \(token): no device can register with it."])
    }

    static let token = Command(
        "register token",
        "Registers with a backend-to-backend registration token: verify (which says whether a PIN is needed), begin, end.",
        options: [
            Opt.token.help("The one-time registration token (rt_eu_…) from the merchant API, the portal or 'register issue'."),
            pinOption,
        ],
        examples: [#"tapsim register token --token "$(tapsim --field registrationToken register issue)" --pin 2468"#]
    ) { context, options in
        let token = try options.required(Opt.token)
        let pin = options[Opt.pin]
        try await context.initialize()
        context.say("Verifying the token…")
        let check = try await context.sdk.checkRegistrationToken(registrationToken: token).value()
        if let refusal = check.refusal { throw refusal }
        // Asked before begin, so a missing secure code never leaves the token half used.
        if check.pinRequired, pin == nil {
            throw TapOnMobileError.registration(
                RegistrationError(
                    .pinRequired,
                    message: "Terminal \(check.terminalId ?? "of this token") has no auto-login: give the secure code to register with (--pin PIN). Nothing was spent: the token still works.",
                    field: "pin"))
        }
        context.say("Beginning the registration on \(check.terminalId ?? "the token's terminal")…")
        _ = try await context.sdk.beginTokenRegistration(registrationToken: token).value()
        context.say("Ending the registration…")
        _ = try await context.sdk.endTokenRegistration(registrationToken: token, pin: pin).value()
        return try await registered(context, [])
    }

    static let quick = Command(
        "register quick",
        "Registers in one go: begin, confirm the challenge in the region's back office (key from merchants.json), end.",
        options: [
            Opt.pin.help("The secure code to log in with, 4 to 8 digits."),
            Opt.terminal.help("The terminal to register on (default: the first free one that allows portal registration)."),
        ],
        examples: ["tapsim register quick --pin 2468", "tapsim --env MBANK register quick --pin 2468 --terminal MBANK-T0201"]
    ) { context, options in
        guard let pin = options[Opt.pin] else { throw UsageError("--pin PIN is required") }
        // The back office's key comes from merchants.json: read before anything is spent on the host.
        let data = try context.sandboxData().region(context.region)
        try await context.initialize()
        let challenge = try await context.sdk.beginRegistration().value()
        context.say("Challenge code: \(challenge)")
        let confirmation = try await confirm(context, data, challenge: challenge, terminal: options[Opt.terminal])
        context.say("Back office confirmed it for \(confirmation.terminalId): \(confirmation.backofficeCode)")
        _ = try await context.sdk.endRegistration(backofficeCode: confirmation.backofficeCode, pin: pin).value()
        return try await registered(
            context,
            [("challengeCode", .string(challenge)), ("backofficeCode", .string(confirmation.backofficeCode))])
    }

    /// The portal's step: the back office confirms `challenge` for `terminal`, or for the first
    /// free terminal that allows portal registration.
    static func confirm(
        _ context: Context, _ data: SandboxData.Region, challenge: String, terminal: String?
    ) async throws -> ChallengeConfirmation {
        let backOffice = BackOffice(host: context.host, key: data.backOfficeKey)
        let chosen: String
        if let terminal { chosen = terminal } else { chosen = try await freeTerminal(backOffice, data, method: "portal") }
        return try await backOffice.confirm(challengeCode: challenge, terminalId: chosen)
    }

    /// The region's first terminal (in merchants.json's order) without a device that allows
    /// `method` (`portal` or `registrationCode`), and for `portal` no valid registration token; with `everyCommand`, the first that also allows
    /// refunds and reversals when there is one (the demo refunds and reverses).
    static func freeTerminal(
        _ backOffice: BackOffice, _ region: SandboxData.Region, method: String, everyCommand: Bool = false
    ) async throws -> String {
        // A terminal with a device is taken; one a registration token waits for is too, for a challenge code.
        let taken = Set(
            try await backOffice.terminals().filter { $0.registered || (method == "portal" && $0.lockedByToken) }.map(\.terminalId))
        let free = region.terminals.filter { $0.allows(method) && !taken.contains($0.id) }
        let preferred = everyCommand ? free.first(where: { $0.refundAvailable && $0.reversalAvailable }) : nil
        guard let chosen = preferred ?? free.first else {
            let name = method == "portal" ? "portal registration" : "registration codes"
            throw TapOnMobileError.registration(
                RegistrationError(
                    .noFreeTerminal,
                    message: "Every terminal of the region that allows \(name) has a device; unregister one or pass --terminal."))
        }
        return chosen.id
    }

    /// The answer of a completed registration; an older session and prepared reader are forgotten.
    static func registered(_ context: Context, _ fields: [(String, JSONValue)]) async throws -> Report {
        context.forgetSession()
        context.updateState { $0.challengeCode = nil }
        let terminal = try await context.sdk.getTerminalID().value()
        return Report(
            [("registered", true), ("terminalId", .string(terminal)), ("environment", .string(context.environment.rawValue))]
                + fields,
            lines: ["Registered on terminal \(terminal) (\(context.environment.rawValue)); device state in \(context.deviceDirectory.path)."])
    }
}
