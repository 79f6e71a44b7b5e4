import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// `tapsim blik code|pay|refund`: BLIK payments (docs/blik.md).
///
/// `blik code` presses the bank app's "Generate code" through the wallet's API; `blik pay` pays
/// with a code and waits for the customer's confirmation in the bank app: a person on its page,
/// or tapsim pressing its buttons (`--approve`, `--decline REASON`) or leaving it unanswered
/// (`--no-answer`). A payment that ends without money moving is an answer (exit 0), as for cards.
enum BlikCommands {
    static let code = Command(
        "blik code", "Generates a BLIK code in the bank app (the wallet simulator), valid 120 s, and prints it.",
        options: [
            Opt.customer.help("The bank's customer (jan, anna, piotr: sandbox-data/wallet.json; default: the first)."),
            Opt.nine.help("A 9-digit code with a 4-digit verification code instead of 6 digits."),
        ],
        examples: [
            "tapsim blik code",
            "tapsim --json blik code --customer anna --nine",
        ]
    ) { context, options in
        let wallet = try context.walletCustomer()
        let customerId: String
        if let given = options[Opt.customer] {
            customerId = given
        } else {
            guard let first = try await wallet.blikCustomers().first else {
                throw TapOnMobileError.transaction(TransactionError(.notFound, code: "customer_not_found", message: "The wallet's bank has no customers."))
            }
            customerId = first.customerId
        }
        let code = try await wallet.blikCode(customerId: customerId, nine: options[Opt.nine])
        var lines = ["BLIK code for \(code.customerId): \(code.code)"]
        if let verification = code.verificationCode { lines.append("  verification \(verification)") }
        lines.append("  valid until  \(Format.time(code.expiresAt)) (\(code.expiresInSeconds) s)")
        return Report(
            [("code", .string(code.code)), ("verificationCode", JSONValue(code.verificationCode)), ("customerId", .string(code.customerId)),
             ("expiresAt", .string(Format.time(code.expiresAt))), ("expiresInSeconds", .int(code.expiresInSeconds))],
            lines: lines)
    }

    static let pay = Command(
        "blik pay", "Takes a BLIK payment with the customer's code, waits for their confirmation in the bank app, ends with the outcome.",
        options: [
            Opt.amount.help("The total in minor units, tip included (4500 is 45.00 zł). Amounts 44.XX pick the bank's answer once approved (4405, 4411, 4451, 4461, 4496: docs/blik.md)."),
            Opt.tip.help("The part of the amount that is a tip, in minor units."),
            Opt.reference.help("The merchant's reference."),
            Opt.code.help("The customer's 6- or 9-digit code ('tapsim blik code', the bank app, or a CI code such as 777123)."),
            Opt.verification.help("The verification code that comes with a 9-digit code."),
            Opt.approve.help("The customer approves in the bank app, through the wallet's API (its \"Approve\")."),
            Opt.declineReason.help("The customer declines in the bank app: \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", "))."),
            Opt.noAnswer.help("The customer never answers: the payment ends TIMEOUT when the bank's confirmation time (60 s) passes."),
        ],
        examples: [
            #"tapsim --env MBANK blik pay --amount 4500 --code "$(tapsim --field code blik code)" --approve"#,
            #"tapsim --env MBANK blik pay --amount 6000 --code "$(tapsim --field code blik code --customer anna)" --approve   # Anna has 50.00 zł: DECLINED insufficient_funds, still exit 0"#,
            #"tapsim --env MBANK blik pay --amount 4500 --code "$(tapsim --field code blik code)" --decline declined_by_customer"#,
            "tapsim --env MBANK blik pay --amount 4500 --code 777123   # the bank approves a 777 code by itself after 2 s",
            "tapsim --env MBANK blik pay --amount 4500 --code 777123456 --verification 1234",
            "tapsim --env MBANK blik pay --amount 4500 --code 500051   # DECLINED insufficient_funds, still exit 0",
            "tapsim --env MBANK blik pay --amount 4500 --code 400409   # used already: blik_code_used, exit 14",
        ]
    ) { context, options in
        let amount = try options.required(Opt.amount)
        let tip = options[Opt.tip]
        // As the bank app shows it (`118 137`) or as digits alone.
        let payCode = try options.required(Opt.code).filter { $0 != " " }
        let action = try APMCommands.customerAction(options, third: (Opt.noAnswer, nil))
        let wallet = try action.map { _ in try context.walletCustomer() }
        try await context.initialize()
        try await context.resumeSession()

        var bank: JSONValue = .null
        // The AsyncStream spelling (on Apple platforms a Combine publisher of the same name exists too).
        let payment: AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> = context.sdk.doBlikPayment(
            requestedAmount: amount, tipAmount: tip, reference: options[Opt.reference], payCode: payCode,
            verificationCode: options[Opt.verification])
        let (events, final) = try await APMCommands.follow(payment, what: "The BLIK payment") { event, events in
            guard case .processing(let payment) = event else { return nil }
            let until = payment.expiresAt.map { " (until \(Format.time($0)))" } ?? ""
            switch (action, wallet) {
            case (.some(.some(let action)), let wallet?):
                bank = try await APMCommands.act(
                    action, on: payment, at: ("bank app", { $0 == .pay ? "approve" : $0.name }), wallet, context, events: events)
            case (.some(.none), _):
                context.say("The customer does not answer\(until)…")
            default:
                context.say("Waiting for the customer to confirm in the bank app\(until); Ctrl-C stops waiting…")
            }
            return nil
        }
        return APMCommands.report([("events", .array(events)), ("bank", bank), ("transaction", JSONValue(encoding: final))], final)
    }

    static let refund = Command(
        "blik refund", "Refunds all or part of a cleared BLIK payment to the customer's account.",
        positional: (Opt.transaction, "TRANSACTION_ID"),
        options: [
            Opt.transaction.help("The cleared BLIK payment (or give it as the first argument)."),
            Opt.amount.help("Minor units, at most what is left of the payment."),
            Opt.reference.help("The merchant's reference."),
        ],
        examples: [
            #"tapsim --env MBANK blik refund --transaction "$(tapsim --env MBANK --field transaction.transactionId blik pay --amount 4500 --code 777123)" --amount 1000"#,
        ]
    ) { context, options in
        let transaction = try options.required(Opt.transaction)
        let amount = try options.required(Opt.amount)
        try await context.initialize()
        try await context.resumeSession()
        return try await APMCommands.followRefund(
            context.sdk.doBlikRefund(refundedTransactionId: transaction, refundAmount: amount, reference: options[Opt.reference]),
            context, payer: "the bank", method: "BLIK")
    }
}
