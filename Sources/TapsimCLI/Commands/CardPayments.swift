import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// Sale, refund, reversal, DCC finish and the card reader test.
///
/// A sale or refund that ends without money moving (`DECLINED`, `TIMEOUT` …) is an answer, not an
/// error: it exits 0 and the status says what happened. Errors are what the SDK refuses.
enum CardPayments {
    static let cardOption = Opt.card.help("The test card the customer taps (sandbox-data/cards.json: visa, mc, mc-pin, visa-us-dcc, …). Default: the region's domestic card, the first in cards.json of its country without PIN or flags (visa on EU, eftpos-au on ANZ, visa-pl on MBANK); with --pin-entry, its domestic online-PIN card (mc-pin, mc-pin-au …).")
    static let pay = Command(
        "pay", "Takes a card payment: the simulated customer taps --card on the reader.",
        options: [
            Opt.amount.help("The total in minor units, tip included (1250 is 12.50). Magic amounts: 42.XX without the tip answers code XX (4205, 4251, 4254, 4255, 4265, 4268, 4291, 4296)."),
            Opt.currency.help("The terminal's currency (default: the terminal's, from terminal-info)."),
            Opt.tip.help("The part of the amount that is a tip, in minor units."),
            Opt.reference.help("The merchant's reference."),
            Opt.checkout.help("A checkout registered by the merchant's backend."),
            cardOption, Opt.pinEntry,
        ],
        examples: [
            "tapsim pay --amount 1250 --currency EUR", "tapsim pay --amount 4251 --card mc   # insufficient funds: DECLINED, still exit 0",
            "tapsim --json pay --amount 2000 --tip 200 --reference INV-7",
            "tapsim pay --amount 1250 --pin-entry wrong   # the region's PIN card, a wrong PIN: DECLINED 55",
        ]
    ) { context, options in
        let amount = try options.required(Opt.amount)
        let tip = options[Opt.tip]
        try context.useCard(named: options[Opt.card], pinEntry: options[Opt.pinEntry])
        try await ready(context)
        let currency = try await currencyOption(context, options)
        let stream: AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>> = context.sdk.doPayment(
            currency: currency, requestedAmount: amount, reference: options[Opt.reference], tipAmount: tip,
            checkoutId: options[Opt.checkout])
        return try await transactionReport(context, stream, card: context.card.current)
    }

    static let refund = Command(
        "refund", "Refunds a cleared sale that can no longer be reversed: the customer taps --card.",
        options: [
            Opt.transaction.help("The sale to refund."),
            Opt.amount.help("At most the sale's amount, in minor units."),
            Opt.currency.help("The sale's currency (default: the terminal's)."),
            Opt.reference.help("The merchant's reference."),
            cardOption, Opt.pinEntry,
        ],
        examples: [
            #"SALE=$(tapsim --field transaction.transactionId pay --amount 1250) && tapsim pay --amount 800 && tapsim refund --transaction "$SALE" --amount 1250   # the later sale ends the first one's reversal"#
        ]
    ) { context, options in
        let transaction = try options.required(Opt.transaction)
        let amount = try options.required(Opt.amount)
        try context.useCard(named: options[Opt.card], pinEntry: options[Opt.pinEntry])
        try await ready(context)
        let currency = try await currencyOption(context, options)
        let stream: AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>> = context.sdk.doRefund(
            currency: currency, requestedAmount: amount, transactionId: transaction, reference: options[Opt.reference])
        return try await transactionReport(context, stream, card: context.card.current)
    }

    static let reverse = Command(
        "reverse", "Reverses (cancels) the terminal's latest cleared sale within 30 minutes, or a sale waiting for DCC.",
        options: [
            Opt.transaction.help("The sale."),
            Opt.byUser.help("The customer cancelled (USER_CANCELLED instead of CANCELLED)."),
        ],
        examples: [
            #"tapsim reverse --transaction "$(tapsim --field transaction.transactionId pay --amount 1250)""#,
            #"tapsim reverse --transaction "$(tapsim --field transaction.transactionId pay --amount 1250)" --by-user"#,
        ]
    ) { context, options in
        let transaction = try options.required(Opt.transaction)
        try await context.initialize()
        try await context.resumeSession()
        let success = try await context.sdk.doReversal(transactionId: transaction, isCancelledByUser: options[Opt.byUser]).value()
        var fields: [(String, JSONValue)] = [
            ("reversed", true), ("transactionId", .string(transaction)),
            ("transactionStatus", JSONValue(success.transactionStatus?.rawValue)),
        ]
        var lines = ["Reversed \(transaction): \(success.transactionStatus?.rawValue ?? "done")."]
        if case .success(let detail) = await context.sdk.fetchTransactionDetails(transactionId: transaction) {
            fields.append(("transaction", JSONValue(detail)))
            lines = ["Reversed:"] + Format.lines(detail)
        }
        return Report(fields, lines: lines)
    }

    static let dcc = Command(
        "dcc", "Finishes a DCC_REQUIRED transaction with the customer's choice of currency.",
        options: [
            Opt.transaction.help("The transaction waiting for the choice (default: the one this device's last 'pay' left waiting)."),
            Opt.accept.help("Pay in the card's currency (dccStatus ACCEPTED)."),
            Opt.decline.help("Pay in the terminal's currency (dccStatus DECLINED)."),
        ],
        examples: [
            "tapsim pay --amount 1000 --card visa-us-dcc && tapsim dcc --accept",
            #"tapsim dcc --transaction "$(tapsim --field transaction.transactionId pay --amount 1000 --card visa-us-dcc)" --decline"#,
        ]
    ) { context, options in
        guard options[Opt.accept] != options[Opt.decline] else {
            throw UsageError("give exactly one of --accept and --decline")
        }
        guard let transaction = options[Opt.transaction] ?? context.state.pendingDCC else {
            throw UsageError("--transaction ID is required: no sale of this device waits for a DCC choice")
        }
        try await context.initialize()
        try await context.resumeSession()
        // An online-PIN card asks for its PIN on the reader after the choice.
        try await context.resumeReader()
        let detail = try await context.sdk.doMakeTransactionFinishDCC(
            transactionId: transaction, dccOfferAccepted: options[Opt.accept]
        ).value()
        if context.state.pendingDCC == transaction { context.updateState { $0.pendingDCC = nil } }
        return Report([("transaction", JSONValue(detail))], lines: Format.lines(detail))
    }

    static let readerTest = Command(
        "reader-test", "Tests the contactless reader with a tap, without a transaction.",
        options: [
            Opt.currency.help("The terminal's currency (default: the terminal's)."),
            cardOption,
        ],
        examples: ["tapsim reader-test", "tapsim reader-test --card mc"]
    ) { context, options in
        try context.useCard(named: options[Opt.card])
        try await ready(context)
        let currency = try await currencyOption(context, options)
        var events: [JSONValue] = []
        var passed: Bool?
        for await result in context.sdk.doCardReaderTest(currency: currency) {
            switch result {
            case .success(.displayingCardReader):
                events.append("displayingCardReader")
                context.say("Card reader shown: the customer taps \(context.card.current?.name ?? "a card")…")
            case .success(.processing):
                events.append("processing")
                context.say("Card read…")
            case .success(.completed(let ok)):
                events.append("completed")
                passed = ok
            case .failure(let error):
                throw Failure(error, context: [("events", .array(events))])
            }
        }
        guard let passed else {
            throw TapOnMobileError.cardReaderSession(CardReaderSessionError(.readerFailure, message: "The card reader test ended without a result."))
        }
        return Report(
            [("cardReadOK", .bool(passed)), ("events", .array(events))],
            lines: [passed ? "The reader read the card." : "The reader did not read a card."])
    }

    // MARK: - Shared

    /// Initialized, logged in (again) and the reader prepared (again) when `tapsim prepare` did it.
    static func ready(_ context: Context) async throws {
        try await context.initialize()
        try await context.resumeSession()
        try await context.resumeReader()
    }

    static func currencyOption(_ context: Context, _ options: ParsedArguments) async throws -> String {
        if let currency = options[Opt.currency] { return currency.uppercased() }
        return try await context.terminalCurrency()
    }

    /// Follows a sale's or refund's events to the final detail.
    static func transactionReport(
        _ context: Context, _ stream: AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>, card: TestCard?
    ) async throws -> Report {
        var events: [JSONValue] = []
        var final: TransactionDetail?
        for await result in stream {
            switch result {
            case .success(.displayingCardReader):
                events.append("displayingCardReader")
                context.say("Card reader shown: the customer taps \(card.map { "\($0.name) (\($0.brand.rawValue) \($0.maskedPan))" } ?? "a card")…")
            case .success(.enteringPin):
                events.append("enteringPin")
                context.say("The customer enters the PIN…")
            case .success(.processing):
                events.append("processing")
                context.say("Processing…")
            case .success(.finishProcessing):
                events.append("finishProcessing")
            case .success(.completed(let detail)):
                events.append("completed")
                final = detail
            case .failure(let error):
                throw Failure(error, context: [("events", .array(events))])
            }
        }
        guard let final else {
            throw TapOnMobileError.transaction(
                TransactionError(.incomplete, message: "The transaction's events ended without a result."))
        }
        var lines = Format.lines(final)
        if final.transactionStatus == .DCC_REQUIRED {
            context.updateState { $0.pendingDCC = final.transactionId }
            lines.append("The customer chooses the currency: tapsim dcc --accept|--decline")
        }
        if final.transactionStatus == .ONGOING {
            // The authorisation timeout (magic amount 42.68): the terminal is busy until it ends.
            lines.append(
                "The host has no answer yet: the terminal stays busy until 30 s pass on its clock (then TIMEOUT). "
                    + "Move on at once: curl -s \(context.host.absoluteString)/_sandbox/clock --json '{\"advanceSeconds\":30}'")
        }
        var fields: [(String, JSONValue)] = [("card", JSONValue(card?.name)), ("events", .array(events)), ("transaction", JSONValue(final))]
        if let outcome = final.outcomeError {
            fields.append(("outcome", ["kind": .string(outcome.kind), "code": .string(outcome.code), "message": .string(outcome.message)]))
        }
        return Report(fields, lines: lines)
    }
}
