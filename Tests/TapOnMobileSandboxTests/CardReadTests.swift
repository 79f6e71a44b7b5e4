import Foundation
import SandboxWire
@testable import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// The card the customer taps, as the SDK reports it: the PIN step among the events, a wrong PIN
/// scripted on the reader, and each refusal of a malformed card as its own error.
@Suite("SDK card reads: PIN step and refused cards")
struct CardReadTests {
    @Test("the PIN step is an event; a wrong PIN declines 55; malformed cards fail with their own kind")
    func pinStepAndRefusedCards() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let reader = sdk.reader

            // The PIN typed with the tap: the PIN pad comes before the host sees the card.
            await reader.present(.tap(card("mc-pin")))
            let (typed, cleared) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "mc-pin")
            #expect(typed == [.displayingCardReader, .enteringPin, .processing, .finishProcessing, .completed(cleared)])
            #expect(cleared.transactionStatus == .CLEARED && cleared.responseCode == "00", "\(cleared)")

            // The PIN the host asks for (PIN_REQUESTED): the PIN pad after the host saw the card.
            await reader.present(.tap(card("mc-pin"), pin: .deferred))
            let (asked, later) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "deferred")
            #expect(asked == [.displayingCardReader, .processing, .enteringPin, .finishProcessing, .completed(later)])
            #expect(later.transactionStatus == .CLEARED, "\(later)")

            // A wrong PIN, scripted on the reader, reaches the host's incorrect-PIN decline.
            await reader.present(.tap(card("mc-pin"), pin: .wrong))
            let (_, wrong) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "wrong PIN")
            #expect(wrong.transactionStatus == .DECLINED && wrong.responseCode == "55", "\(wrong)")
            #expect(wrong.outcomeError == .transaction(.declined))

            // A card without PIN has no PIN step.
            await reader.present(.tap(card("visa")))
            let (plain, approved) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "visa")
            #expect(plain == [.displayingCardReader, .processing, .finishProcessing, .completed(approved)])

            // Malformed cards: the reader seals what they say, the host refuses each with its own code.
            for (name, expected, code) in [
                ("visa-bad-luhn", TapOnMobileError.cardReaderSession(.invalidPan), "invalid_pan"),
                ("visa-country-zz", .cardReaderSession(.invalidCardCountry), "invalid_card_country"),
                ("visa-as-amex", .cardReaderSession(.brandMismatch), "brand_mismatch"),
            ] {
                await reader.present(.tap(card(name)))
                let results = await collect(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil))
                #expect(results.last == .failure(expected), "\(name): \(results)")
                if case .failure(let error)? = results.last {
                    #expect(error.code == code && error.status == 400 && error.field == "cardPayload", "\(name): \(error)")
                    #expect(error.exitCode == 11, "\(name): tapsim's card reader exit code")
                }
            }

            // A card no kernel can read stops on the reader, before the host.
            var unreadable = card("visa")
            unreadable.pan = "4761 7300 0000 0011"
            await reader.present(.tap(unreadable))
            let stopped = await collect(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil))
            #expect(stopped.last == .failure(.cardReaderSession(.unreadableCard)), "\(stopped)")

            // None of them left the terminal busy.
            await reader.present(.tap(card("visa")))
            let (_, after) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "after")
            #expect(after.transactionStatus == .CLEARED, "\(after)")
        }
    }

    @Test(arguments: [
        ("invalid_pan", CardReaderSessionError.Kind.invalidPan), ("invalid_card_country", .invalidCardCountry),
        ("brand_mismatch", .brandMismatch), ("unknown_brand", .unknownBrand), ("unknown_cvm", .unknownCvm),
        ("invalid_card_data", .invalidCardData), ("card_payload_invalid", .payloadRejected),
    ])
    func theHostsCardRefusalsMapToTheirOwnKind(code: String, kind: CardReaderSessionError.Kind) {
        let error = TapOnMobileError.host(status: 400, code: ErrorCode(rawValue: code), message: "from the host", field: "cardPayload")
        #expect(error == .cardReaderSession(CardReaderSessionError(kind)))
        #expect(error.code == code && error.message == "from the host" && error.field == "cardPayload")
    }

    @Test("a terminal reserved by an unused registration token is a registration refusal (terminalInUse) keeping its code, not a network error")
    func aTerminalLockedByATokenIsARegistrationRefusal() {
        let error = TapOnMobileError.host(status: 409, code: .terminalLockedByToken, message: "reserved by a token", field: "terminalId")
        #expect(error == .registration(RegistrationError(.terminalInUse)), "\(error)")
        #expect(error.code == "terminal_locked_by_token" && error.status == 409)
    }

    @Test("a code from a newer host, and one no category claims, become network.http keeping what the host said")
    func unknownCodesBecomeTheGenericHTTPError() {
        for code in ["teapot_mode", "outcome_unknown"] {
            let error = TapOnMobileError.host(status: 422, code: ErrorCode(rawValue: code), message: "from the host", field: "callbackUrl")
            #expect(error == .network(.http(status: 422, code: code)), "\(error)")
            #expect(error.code == code && error.status == 422 && error.message == "from the host" && error.field == "callbackUrl")
        }
    }
}
