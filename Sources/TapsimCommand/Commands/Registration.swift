import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// `register begin|end|token|quick`: the SDK's two registrations, and both halves of the portal one.
enum Registration {
    static let begin = Command(
        "register begin", "Starts a portal registration: prints the challenge code to confirm in the merchant portal.",
        examples: ["tapsim register begin", "tapsim register end --backoffice-code EU-483920 --pin 2468"]
    ) { context, _ in
        try await context.initialize()
        let challenge = try await context.sdk.beginRegistration().value()
        return Report(
            [("challengeCode", .string(challenge))],
            lines: [
                "Challenge code: \(challenge)",
                "Confirm it in the portal (or the back office), then: tapsim register end --backoffice-code CODE --pin PIN",
            ])
    }

    static let end = Command(
        "register end", "Completes a portal registration with the back-office code and the secure code.",
        options: [
            .value("backoffice-code", "CODE", "The code the portal gave for this device's challenge (EU-483920)."),
            .value("pin", "PIN", "The secure code to log in with, 4 to 8 digits (none on an auto-login terminal)."),
        ],
        examples: ["tapsim register end --backoffice-code EU-483920 --pin 2468"]
    ) { context, options in
        let code = try options.required("backoffice-code", "CODE")
        try await context.initialize()
        _ = try await context.sdk.endRegistration(backofficeCode: code, pin: options.string("pin")).value()
        return try await registered(context, [("backofficeCode", .string(code))])
    }

    static let token = Command(
        "register token", "Registers with a backend-to-backend registration token: verify, begin, end.",
        options: [
            .value("token", "TOKEN", "The one-time registration token (rt_eu_…) from the merchant API or the portal."),
            .value("pin", "PIN", "The secure code to log in with, 4 to 8 digits (none on an auto-login terminal)."),
        ],
        examples: ["tapsim register token --token rt_eu_0123456789abcdef0123456789abcdef --pin 2468"]
    ) { context, options in
        let token = try options.required("token", "TOKEN")
        try await context.initialize()
        context.say("Verifying the token…")
        guard try await context.sdk.verifyRegistrationToken(registrationToken: token).value() else {
            throw TapOnMobileError.registration(
                RegistrationError(
                    .invalidCode, code: "registration_token_not_valid",
                    message: "The host does not accept this registration token (unknown, expired, used, or of another region)."))
        }
        context.say("Beginning the registration…")
        _ = try await context.sdk.beginTokenRegistration(registrationToken: token).value()
        context.say("Ending the registration…")
        _ = try await context.sdk.endTokenRegistration(registrationToken: token, pin: options.string("pin")).value()
        return try await registered(context, [])
    }

    static let quick = Command(
        "register quick",
        "Registers in one go: begin, confirm the challenge in the region's back office (key from merchants.json), end.",
        options: [
            .value("pin", "PIN", "The secure code to log in with, 4 to 8 digits."),
            .value("terminal", "TID", "The terminal to register on (default: the first free one that allows portal registration)."),
        ],
        examples: ["tapsim register quick --pin 2468", "tapsim --env MBANK register quick --pin 2468 --terminal MBANK-T0201"]
    ) { context, options in
        let pin = try options.required("pin", "PIN")
        let data = try context.sandboxData().region(context.region)
        try await context.initialize()
        let challenge = try await context.sdk.beginRegistration().value()
        context.say("Challenge code: \(challenge)")
        let backOffice = BackOffice(host: context.host, key: data.backOfficeKey)
        let terminal: String
        if let given = options.string("terminal") { terminal = given } else { terminal = try await freeTerminal(backOffice, data) }
        let confirmation = try await backOffice.confirm(challengeCode: challenge, terminalId: terminal)
        context.say("Back office confirmed it for \(confirmation.terminalId): \(confirmation.backofficeCode)")
        _ = try await context.sdk.endRegistration(backofficeCode: confirmation.backofficeCode, pin: pin).value()
        return try await registered(
            context,
            [("challengeCode", .string(challenge)), ("backofficeCode", .string(confirmation.backofficeCode))])
    }

    /// A terminal of the region without a device whose fixture allows portal registration; one
    /// that allows refunds and reversals when there is one, so every command works on it.
    static func freeTerminal(_ backOffice: BackOffice, _ region: SandboxData.Region) async throws -> String {
        let taken = Set(try await backOffice.terminals().filter(\.registered).map(\.terminalId))
        let free = region.terminals.filter { $0.allows("portal") && !taken.contains($0.id) }
        guard let free = free.first(where: { $0.refundAvailable && $0.reversalAvailable }) ?? free.first else {
            throw TapOnMobileError.registration(
                RegistrationError(
                    .noFreeTerminal, code: "no_free_terminal",
                    message: "Every terminal of the region that allows portal registration has a device; unregister one or pass --terminal."))
        }
        return free.id
    }

    /// The answer of a completed registration; an older session and prepared reader are forgotten.
    static func registered(_ context: Context, _ fields: [(String, JSONValue)]) async throws -> Report {
        context.forgetSession()
        let terminal = try await context.sdk.getTerminalID().value()
        return Report(
            [("registered", true), ("terminalId", .string(terminal)), ("environment", .string(context.environment.rawValue))]
                + fields,
            lines: ["Registered on terminal \(terminal) (\(context.environment.rawValue)); device state in \(context.deviceDirectory.path)."])
    }
}
