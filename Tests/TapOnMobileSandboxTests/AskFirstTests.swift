import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// What the SDK learns before it spends a token or shows the card screen, and what it keeps
/// on the device.
@Suite("SDK: asking before spending")
struct AskFirstTests {
    @Test("a token's check names the terminal and the PIN it needs; end without it is a registration error the same device recovers from")
    func tokenCheck() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            let sdk = phone.sdk
            _ = try value(await sdk.initialization(environment: .sandboxMBANK), "initialization")
            let backOffice = sandbox.backOffice("MBANK")

            let auto = try value(
                await sdk.checkRegistrationToken(registrationToken: try await backOffice.registrationToken(terminal: "MBANK-T0101")),
                "check an auto-login terminal's token")
            #expect(auto.valid && auto.terminalId == "MBANK-T0101" && !auto.pinRequired && auto.refusal == nil, "\(auto)")

            let token = try await backOffice.registrationToken(terminal: "MBANK-T0203")
            let check = try value(await sdk.checkRegistrationToken(registrationToken: token), "check")
            #expect(check.valid && check.terminalId == "MBANK-T0203" && check.pinRequired, "\(check)")
            _ = try value(await sdk.beginTokenRegistration(registrationToken: token), "begin")
            let missing = try failure(await sdk.endTokenRegistration(registrationToken: token, pin: nil), "end without a PIN")
            #expect(missing == .registration(.pinRequired) && missing.exitCode == 12 && missing.code == "pin_required", "\(missing)")

            // The registration is still this device's to finish.
            #expect(try value(await sdk.verifyRegistrationToken(registrationToken: token), "verify again") == true)
            _ = try value(await sdk.beginTokenRegistration(registrationToken: token), "begin again")
            _ = try value(await sdk.endTokenRegistration(registrationToken: token, pin: "8642"), "end with the PIN")
            #expect(try value(await sdk.getTerminalID(), "terminal") == "MBANK-T0203")

            // Another phone hears the host's own reason, not a bare false.
            let other = makePhone(sandbox).sdk
            _ = try value(await other.initialization(environment: .sandboxMBANK), "other initialization")
            let used = try value(await other.checkRegistrationToken(registrationToken: token), "check a used token")
            #expect(!used.valid && used.refusal == .registration(.codeUsed), "\(used)")
            #expect(used.refusal?.code == "registration_token_used", "\(used)")
            #expect(used.refusal?.message == "The registration token was already used.", "\(used)")
        }
    }

    @Test("a tip the terminal refuses, a currency it does not take and a refund over its sale fail before the card screen")
    func refusedBeforeTheCard() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox, cardScripts: { _ in .tap(card("visa")) })
            let sdk = phone.sdk
            // EU-T0203 takes no tips.
            try await registerAndPrepare(phone, on: "EU-T0203", in: sandbox, environment: .sandboxEU)

            let tipped = await collect(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil, tipAmount: 100))
            #expect(tipped.count == 1, "\(tipped)")
            guard case .failure(let tipError)? = tipped.first else { Issue.record("no failure: \(tipped)"); return }
            #expect(tipError == .transaction(.invalidTip) && tipError.code == "tips_not_allowed", "\(tipError)")

            // A currency the EUR terminal does not take: refused before the reader shows.
            let dollars = await collect(sdk.doPayment(currency: "USD", requestedAmount: 1250, reference: nil))
            #expect(dollars.count == 1, "the reader showed before the currency was refused: \(dollars)")
            guard case .failure(let currencyError)? = dollars.first else { Issue.record("no failure: \(dollars)"); return }
            #expect(currencyError.code == "currency_mismatch", "\(currencyError)")

            let (_, sale) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "sale")
            _ = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 800, reference: nil), "a later sale")
            let over = await collect(sdk.doRefund(currency: "EUR", requestedAmount: 9999, transactionId: sale.transactionId, reference: nil))
            #expect(over.count == 1, "\(over)")
            guard case .failure(let overError)? = over.first else { Issue.record("no failure: \(over)"); return }
            #expect(overError == .transaction(.invalidAmount) && overError.code == "refund_over_amount", "\(overError)")

            // The refusals cost no card read: the refund the host allows still goes through.
            let (events, refund) = try await transaction(
                sdk.doRefund(currency: "EUR", requestedAmount: 1250, transactionId: sale.transactionId, reference: nil), "refund")
            #expect(events.first == .displayingCardReader && refund.transactionStatus == .CLEARED, "\(events) \(refund)")
        }
    }

    @Test("device.json, which holds the device secret and the session token, is readable by its owner only")
    func ownerOnlyDeviceFile() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            try await registerAndPrepare(phone, on: "EU-T0203", in: sandbox, environment: .sandboxEU)
            let text = try String(contentsOf: phone.deviceFile, encoding: .utf8)
            #expect(text.contains("deviceSecret") && text.contains("token"), "the file holds the secrets: \(text)")
            let attributes = try FileManager.default.attributesOfItem(atPath: phone.deviceFile.path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o600, "device.json mode \(String(mode, radix: 8))")
            let folder = try FileManager.default.attributesOfItem(atPath: phone.deviceFile.deletingLastPathComponent().path)
            #expect((folder[.posixPermissions] as? Int).map { $0 & 0o077 } == 0, "the device folder is the owner's")
        }
    }

    @Test("the SDK tells which flavour its host runs, whatever flavour it asked for")
    func hostFlavour() async throws {
        try await withSandbox { sandbox in
            let sdk = makePhone(sandbox).sdk
            #expect(sdk.hostFlavour == nil)
            _ = try value(await sdk.initialization(environment: .prodEU), "initialization for prodEU")
            #expect(sdk.hostFlavour == "sandbox")
        }
    }
}
