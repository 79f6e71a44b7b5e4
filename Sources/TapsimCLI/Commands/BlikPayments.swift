import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// `tapsim blik code|pay|refund`: BLIK payments (docs/blik.md).
///
/// `blik code` presses the bank app's "Generate code" through the wallet's API; `blik pay` pays
/// with a code and waits for the customer's confirmation in the bank app: a person on its page,
/// or tapsim pressing its buttons (`--approve`, `--decline REASON`) or leaving it unanswered
/// (`--no-answer`). A payment that ends without money moving is an answer (exit 0), as for cards.
enum BlikPayments {
    static let code = Command(
        "blik code", "Generates a BLIK code in the bank app (the wallet simulator), valid 120 s, and prints it.",
        options: [
            .value("customer", "ID", "The bank's customer (jan, anna, piotr: sandbox-data/wallet.json; default: the first)."),
            .flag("nine", "A 9-digit code with a 4-digit verification code instead of 6 digits."),
        ],
        examples: [
            "tapsim blik code",
            "tapsim --json blik code --customer anna --nine",
        ]
    ) { context, options in
        let wallet = try context.walletCustomer()
        let customerId: String
        if let given = options.string("customer") {
            customerId = given
        } else {
            guard let first = try await wallet.blikCustomers().first else {
                throw TapOnMobileError.transaction(TransactionError(.notFound, code: "customer_not_found", message: "The wallet's bank has no customers."))
            }
            customerId = first.customerId
        }
        let code = try await wallet.blikCode(customerId: customerId, nine: options.flag("nine"))
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
            .value("amount", "N", "The total in minor units, tip included (4500 is 45.00 zł). Amounts 44.XX pick the bank's answer once approved (4405, 4411, 4451, 4461, 4496: docs/blik.md)."),
            .value("tip", "N", "The part of the amount that is a tip, in minor units."),
            .value("reference", "TEXT", "The merchant's reference."),
            .value("code", "CODE", "The customer's 6- or 9-digit code ('tapsim blik code', the bank app, or a CI code such as 777123)."),
            .value("verification", "CODE", "The verification code that comes with a 9-digit code."),
            .flag("approve", "The customer approves in the bank app, through the wallet's API (its \"Approve\")."),
            .value("decline", "REASON", "The customer declines in the bank app: \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", "))."),
            .flag("no-answer", "The customer never answers: the payment ends TIMEOUT when the bank's confirmation time (60 s) passes."),
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
        let amount = try options.requiredAmount("amount")
        let tip = try options.integer("tip", in: 0...Int(Int32.max))
        // As the bank app shows it (`118 137`) or as digits alone.
        let payCode = try options.required("code", "CODE").filter { $0 != " " }
        let action = try bankAction(options)
        let wallet = try action.map { _ in try context.walletCustomer() }
        try await context.initialize()
        try await context.resumeSession()

        var events: [JSONValue] = []
        var bank: JSONValue = .null
        var final: APMTransaction?
        for await result in context.sdk.doBlikPayment(
            requestedAmount: amount, tipAmount: tip, reference: options.string("reference"), payCode: payCode,
            verificationCode: options.string("verification"))
        {
            switch result {
            case .success(.processing(let payment)):
                events.append("processing")
                let until = payment.expiresAt.map { " (until \(Format.time($0)))" } ?? ""
                guard let action, let wallet else {
                    context.say("Waiting for the customer to confirm in the bank app\(until); Ctrl-C stops waiting…")
                    continue
                }
                guard case .some(let walletAction) = action else {
                    context.say("The customer does not answer\(until)…")
                    continue
                }
                let answer: WalletProvider.Order
                do throws(TapOnMobileError) {
                    answer = try await wallet.perform(walletAction, orderId: payment.transactionId)
                } catch {
                    throw Failure(error, context: [("events", .array(events)), ("transaction", JSONValue(encoding: payment))])
                }
                bank = ["action": .string(walletAction.name == "pay" ? "approve" : walletAction.name), "status": .string(answer.status.rawValue),
                        "reason": JSONValue(answer.reason)]
                context.say("The customer chose \(walletAction.name == "pay" ? "approve" : walletAction.name) in the bank app: order \(answer.status.rawValue).")
                if answer.status != .paying { context.customerClock.hurry() }
            case .success(.completed(let payment)):
                events.append("completed")
                final = payment
            case .success:
                break
            case .failure(let error):
                throw Failure(error, context: [("events", .array(events))])
            }
        }
        guard let final else {
            throw TapOnMobileError.transaction(TransactionError(.incomplete, message: "The BLIK payment's events ended without a result."))
        }
        var fields: [(String, JSONValue)] = [("events", .array(events)), ("bank", bank), ("transaction", JSONValue(encoding: final))]
        if let outcome = QRPayments.outcomeField(final) { fields.append(outcome) }
        return Report(fields, lines: QRPayments.lines(final))
    }

    static let refund = Command(
        "blik refund", "Refunds all or part of a cleared BLIK payment to the customer's account.",
        positional: (option: "transaction", placeholder: "TRANSACTION_ID"),
        options: [
            .value("transaction", "ID", "The cleared BLIK payment (or give it as the first argument)."),
            .value("amount", "N", "Minor units, at most what is left of the payment."),
            .value("reference", "TEXT", "The merchant's reference."),
        ],
        examples: [
            #"tapsim --env MBANK blik refund --transaction "$(tapsim --env MBANK --field transaction.transactionId blik pay --amount 4500 --code 777123)" --amount 1000"#,
        ]
    ) { context, options in
        let transaction = try options.required("transaction", "ID")
        let amount = try options.requiredAmount("amount")
        try await context.initialize()
        try await context.resumeSession()
        return try await QRPayments.followRefund(
            context.sdk.doBlikRefund(refundedTransactionId: transaction, refundAmount: amount, reference: options.string("reference")),
            context, payer: "the bank", method: "BLIK")
    }

    /// `--approve`, `--decline REASON` or `--no-answer`, at most one: `nil` when none (a person
    /// answers on the page), `.some(nil)` for `--no-answer`.
    static func bankAction(_ options: ParsedArguments) throws -> WalletCustomer.Action?? {
        var actions: [WalletCustomer.Action?] = []
        if options.flag("approve") { actions.append(.pay) }
        if let text = options.string("decline") {
            guard let reason = APMDeclineReason(rawValue: text.lowercased()) else {
                throw UsageError("--decline takes \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
            }
            actions.append(.decline(reason))
        }
        if options.flag("no-answer") { actions.append(nil) }
        guard actions.count <= 1 else { throw UsageError("give at most one of --approve, --decline and --no-answer") }
        return actions.first
    }
}
