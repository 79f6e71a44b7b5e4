import CommandLineSupport
import Foundation
import SandboxQRCode
import TapOnMobileSandbox

/// `tapsim qr pay|cancel|refund`: QR wallet payments (docs/qr-payments.md).
///
/// `qr pay` prints the QR (Unicode half blocks) and its URL, the wallet simulator's pay page of
/// the order, and waits for the customer: a person who opens the URL (or scans the QR), or tapsim
/// itself pressing the page's button through the wallet's API (`--approve`, `--decline`,
/// `--expire`). As with cards, an order that ends without money moving is an answer (exit 0).
enum QRPayments {
    static let pay = Command(
        "qr pay", "Takes a QR wallet payment: prints the QR and its URL, waits for the customer, ends with the outcome.",
        options: [
            .value("amount", "N", "The total in minor units, tip included (1250 is 12.50). Amounts 43.XX pick the wallet's answer (4305, 4311, 4320, 4330, 4340, 4351, 4361, 4396: docs/qr-payments.md)."),
            .value("tip", "N", "The part of the amount that is a tip, in minor units."),
            .value("reference", "TEXT", "The merchant's reference."),
            .value("brand", "BRAND", "The wallet brand, one of the terminal's active apmConfig brands (ALIPAY, WECHATPAY …; default: the first active)."),
            .flag("approve", "The customer pays at once, through the wallet's API (its pay page's \"Pay\")."),
            .value("decline", "REASON", "The customer declines: \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", "))."),
            .flag("expire", "The wallet lets the order expire (its pay page's \"Let it expire\")."),
            .flag("no-wait", "Print the QR and the new transaction, and end without waiting (for 'tapsim qr cancel')."),
        ],
        examples: [
            "tapsim qr pay --amount 1250 --approve",
            "tapsim qr pay --amount 1250 --decline insufficient_funds   # DECLINED, still exit 0",
            "tapsim --json qr pay --amount 2000 --tip 200 --reference INV-7 --brand ALIPAY --expire",
            "tapsim qr pay --amount 4320   # the wallet approves 43.20 by itself after 2 s",
        ]
    ) { context, options in
        let amount = try options.requiredAmount("amount")
        let tip = try options.integer("tip", in: 0...Int(Int32.max))
        let action = try walletAction(options)
        let noWait = options.flag("no-wait")
        if noWait, action != nil { throw UsageError("--no-wait ends before the customer acts: drop --approve, --decline or --expire") }
        let wallet = try action.map { _ in try context.walletCustomer() }
        if let brand = options.string("brand") {
            var configuration = context.sdk.configuration
            configuration.qrBrand = APMPaymentData.APMBrand(rawValue: brand.uppercased())
            context.sdk.configure(configuration)
        }
        try await context.initialize()
        try await context.resumeSession()

        var events: [JSONValue] = []
        var qrCode: String?
        var walletOrder: JSONValue = .null
        var final: APMTransaction?
        for await result in context.sdk.doQRPayment(requestedAmount: amount, tipAmount: tip, reference: options.string("reference")) {
            switch result {
            case .success(.displayBrands(let brands)):
                events.append("displayBrands")
                context.say("Wallet brands: \(brands.map(\.rawValue).joined(separator: ", ")).")
            case .success(.displayQR(let order)):
                events.append("displayQR")
                qrCode = order.qrCode
                showQR(context, order)
                if noWait {
                    final = order
                    break
                }
                guard let action, let wallet else {
                    let until = order.expiresAt.map { " (until \(Format.time($0)))" } ?? ""
                    context.say("Waiting for the customer to scan and pay\(until); Ctrl-C stops waiting, 'tapsim qr cancel \(order.transactionId)' ends it…")
                    continue
                }
                let answer: WalletProvider.Order
                do throws(TapOnMobileError) {
                    answer = try await wallet.perform(action, orderId: order.transactionId)
                } catch {
                    throw Failure(error, context: [("events", .array(events)), ("transaction", JSONValue(encoding: order))])
                }
                walletOrder = ["action": .string(action.name), "status": .string(answer.status.rawValue), "reason": JSONValue(answer.reason)]
                context.say("The customer chose \(action.name) in the wallet: order \(answer.status.rawValue).")
                // The wallet has its answer from the host (unless it still retries): poll now.
                if answer.status != .paying { context.customerClock.hurry() }
            case .success(.processing):
                events.append("processing")
                context.say("The customer opened the QR…")
            case .success(.completed(let order)):
                events.append("completed")
                final = order
            case .failure(let error):
                throw Failure(error, context: [("events", .array(events))])
            }
            if noWait, final != nil { break }
        }
        guard let final else {
            throw TapOnMobileError.transaction(TransactionError(.incomplete, message: "The QR payment's events ended without a result."))
        }
        var fields: [(String, JSONValue)] = [
            ("events", .array(events)), ("qrCode", JSONValue(qrCode)), ("wallet", walletOrder), ("transaction", JSONValue(encoding: final)),
        ]
        if !noWait, let outcome = outcomeField(final) { fields.append(outcome) }
        var lines = lines(final)
        if noWait { lines.append("Not waiting: 'tapsim qr cancel \(final.transactionId)' ends it, or the customer pays at \(qrCode ?? "the QR").") }
        return Report(fields, lines: lines)
    }

    static let cancel = Command(
        "qr cancel", "Cancels a QR payment the customer has not paid: USER_CANCELLED, and the wallet closes the order.",
        positional: (option: "transaction", placeholder: "TRANSACTION_ID"),
        options: [
            .value("transaction", "ID", "The QR payment (or give it as the first argument)."),
            .value("reason", "TEXT", "Why, kept on the transaction."),
        ],
        examples: [
            #"tapsim qr cancel "$(tapsim --field transaction.transactionId qr pay --amount 1250 --no-wait)" --reason "customer left""#,
            #"tapsim qr cancel "$(tapsim --field transaction.transactionId qr pay --amount 1250 --approve)"   # paid already: apm_already_paid, exit 14"#,
        ]
    ) { context, options in
        let transaction = try options.required("transaction", "ID")
        try await context.initialize()
        try await context.resumeSession()
        let cancelled = try await context.sdk.cancelQRPayment(transactionId: transaction, reason: options.string("reason") ?? "").value()
        return Report([("transaction", JSONValue(encoding: cancelled))], lines: ["Cancelled:"] + lines(cancelled))
    }

    static let refund = Command(
        "qr refund", "Refunds all or part of a cleared QR payment; the wallet answers within the terminal's apmRefundTimeout.",
        positional: (option: "transaction", placeholder: "TRANSACTION_ID"),
        options: [
            .value("transaction", "ID", "The cleared QR payment (or give it as the first argument)."),
            .value("amount", "N", "Minor units, at most what is left of the payment."),
            .value("reference", "TEXT", "The merchant's reference."),
        ],
        examples: [
            #"tapsim qr refund "$(tapsim --field transaction.transactionId qr pay --amount 1250 --approve)" --amount 500"#,
            #"SALE=$(tapsim --field transaction.transactionId qr pay --amount 1000 --approve) && tapsim qr refund "$SALE" --amount 600 && tapsim qr refund "$SALE" --amount 500   # beyond the payment: refund_over_amount, exit 14"#,
        ]
    ) { context, options in
        let transaction = try options.required("transaction", "ID")
        let amount = try options.requiredAmount("amount")
        try await context.initialize()
        try await context.resumeSession()
        return try await followRefund(
            context.sdk.doQRRefund(refundedTransactionId: transaction, refundAmount: amount, reference: options.string("reference")),
            context, payer: "the wallet", method: "QR")
    }

    // MARK: - Shared

    /// Follows a QR or BLIK refund (`qr refund`, `blik refund`) to its end: the events seen, the
    /// REFUND transaction, and its outcome when it did not clear.
    static func followRefund(
        _ stream: AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>, _ context: Context, payer: String, method: String
    ) async throws -> Report {
        var events: [JSONValue] = []
        var final: APMTransaction?
        for await result in stream {
            switch result {
            case .success(.processing):
                events.append("processing")
                context.say("The refund is with \(payer)…")
            case .success(.completed(let refund)):
                events.append("completed")
                final = refund
            case .success:
                break
            case .failure(let error):
                throw Failure(error, context: [("events", .array(events))])
            }
        }
        guard let final else {
            throw TapOnMobileError.transaction(TransactionError(.incomplete, message: "The \(method) refund's events ended without a result."))
        }
        var fields: [(String, JSONValue)] = [("events", .array(events)), ("transaction", JSONValue(encoding: final))]
        if let outcome = outcomeField(final) { fields.append(outcome) }
        return Report(fields, lines: lines(final))
    }

    /// The report's `outcome` field of an APM transaction that did not clear: its kind, code and message.
    static func outcomeField(_ transaction: APMTransaction) -> (String, JSONValue)? {
        transaction.toTransactionDetail().outcomeError.map { outcome in
            ("outcome", ["kind": .string(outcome.kind), "code": .string(outcome.code), "message": .string(outcome.message)])
        }
    }

    /// `--approve`, `--decline REASON` or `--expire`: at most one.
    static func walletAction(_ options: ParsedArguments) throws -> WalletCustomer.Action? {
        var actions: [WalletCustomer.Action] = []
        if options.flag("approve") { actions.append(.pay) }
        if let text = options.string("decline") {
            guard let reason = APMDeclineReason(rawValue: text.lowercased()) else {
                throw UsageError("--decline takes \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
            }
            actions.append(.decline(reason))
        }
        if options.flag("expire") { actions.append(.expire) }
        guard actions.count <= 1 else { throw UsageError("give at most one of --approve, --decline and --expire") }
        return actions.first
    }

    /// The QR, drawn for the terminal, and the URL it holds.
    static func showQR(_ context: Context, _ order: APMTransaction) {
        guard let text = order.qrCode else { return }
        if let code = try? QRCode(text: text) { context.say(code.terminalText()) }
        context.say("\(order.brandFullName ?? order.brand?.rawValue ?? "Wallet"): scan the QR, or open \(text)")
    }

    /// A QR payment or refund in tapsim's transaction lines, with its brand and decline reason.
    static func lines(_ order: APMTransaction) -> [String] {
        var lines = Format.lines(order.toTransactionDetail())
        var facts: [(String, String?)] = [("brand", order.brandFullName ?? order.brand?.rawValue), ("declined for", order.declineReason)]
        if order.transactionStatus == .NEW || order.transactionStatus == .ONGOING { facts.append(("expires", order.expiresAt.map(Format.time))) }
        for (name, value) in facts {
            guard let value else { continue }
            lines.append("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(value)")
        }
        return lines
    }
}
