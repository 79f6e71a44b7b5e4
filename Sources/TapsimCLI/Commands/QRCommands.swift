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
enum QRCommands {
    static let pay = Command(
        "qr pay", "Takes a QR wallet payment: prints the QR and its URL, waits for the customer, ends with the outcome.",
        options: [
            Opt.amount.help("The total in minor units, tip included (1250 is 12.50). Amounts 43.XX pick the wallet's answer (4305, 4311, 4320, 4330, 4340, 4351, 4361, 4396: docs/qr-payments.md)."),
            Opt.tip.help("The part of the amount that is a tip, in minor units."),
            Opt.reference.help("The merchant's reference."),
            Opt.brand.help("The wallet brand, one of the terminal's active apmConfig brands (ALIPAY, WECHATPAY …; default: the first active)."),
            Opt.approve.help("The customer pays at once, through the wallet's API (its pay page's \"Pay\")."),
            Opt.declineReason.help("The customer declines: \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", "))."),
            Opt.expire.help("The wallet lets the order expire (its pay page's \"Let it expire\")."),
            Opt.noWait.help("Print the QR and the new transaction, and end without waiting (for 'tapsim qr cancel')."),
        ],
        examples: [
            "tapsim qr pay --amount 1250 --approve",
            "tapsim qr pay --amount 1250 --decline insufficient_funds   # DECLINED, still exit 0",
            "tapsim --json qr pay --amount 2000 --tip 200 --reference INV-7 --brand ALIPAY --expire",
            "tapsim qr pay --amount 4320   # the wallet approves 43.20 by itself after 2 s",
        ]
    ) { context, options in
        let amount = try options.required(Opt.amount)
        let tip = options[Opt.tip]
        let action = try APMCommands.customerAction(options, third: (Opt.expire, .expire)) ?? nil
        let noWait = options[Opt.noWait]
        if noWait, action != nil { throw UsageError("--no-wait ends before the customer acts: drop --approve, --decline or --expire") }
        let wallet = try action.map { _ in try context.walletCustomer() }
        if let brand = options[Opt.brand] {
            var configuration = context.sdk.configuration
            configuration.qrBrand = APMPaymentData.APMBrand(rawValue: brand.uppercased())
            context.sdk.configure(configuration)
        }
        try await context.initialize()
        try await context.resumeSession()

        var qrCode: String?
        var walletOrder: JSONValue = .null
        // The AsyncStream spelling (on Apple platforms a Combine publisher of the same name exists too).
        let payment: AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> = context.sdk.doQRPayment(
            requestedAmount: amount, tipAmount: tip, reference: options[Opt.reference])
        let (events, final) = try await APMCommands.follow(payment, what: "The QR payment") { event, events in
            switch event {
            case .displayBrands(let brands):
                context.say("Wallet brands: \(brands.map(\.rawValue).joined(separator: ", ")).")
            case .displayQR(let order):
                qrCode = order.qrCode
                showQR(context, order)
                if noWait { return order }
                if let action, let wallet {
                    walletOrder = try await APMCommands.act(action, on: order, at: ("wallet", \.name), wallet, context, events: events)
                } else {
                    let until = order.expiresAt.map { " (until \(Format.time($0)))" } ?? ""
                    context.say("Waiting for the customer to scan and pay\(until); Ctrl-C stops waiting, 'tapsim qr cancel \(order.transactionId)' ends it…")
                }
            case .processing:
                context.say("The customer opened the QR…")
            case .completed:
                break
            }
            return nil
        }
        let fields: [(String, JSONValue)] = [
            ("events", .array(events)), ("qrCode", JSONValue(qrCode)), ("wallet", walletOrder), ("transaction", JSONValue(encoding: final)),
        ]
        let notWaiting = noWait ? ["Not waiting: 'tapsim qr cancel \(final.transactionId)' ends it, or the customer pays at \(qrCode ?? "the QR")."] : []
        return APMCommands.report(fields, final, extraLines: notWaiting, outcome: !noWait)
    }

    static let cancel = Command(
        "qr cancel", "Cancels a QR payment the customer has not paid: USER_CANCELLED, and the wallet closes the order.",
        positional: (Opt.transaction, "TRANSACTION_ID"),
        options: [
            Opt.transaction.help("The QR payment (or give it as the first argument)."),
            Opt.reason.help("Why, kept on the transaction."),
        ],
        examples: [
            #"tapsim qr cancel "$(tapsim --field transaction.transactionId qr pay --amount 1250 --no-wait)" --reason "customer left""#,
            #"tapsim qr cancel "$(tapsim --field transaction.transactionId qr pay --amount 1250 --approve)"   # paid already: apm_already_paid, exit 14"#,
        ]
    ) { context, options in
        let transaction = try options.required(Opt.transaction)
        try await context.initialize()
        try await context.resumeSession()
        let cancelled = try await context.sdk.cancelQRPayment(transactionId: transaction, reason: options[Opt.reason] ?? "").value()
        return Report([("transaction", JSONValue(encoding: cancelled))], lines: ["Cancelled:"] + APMCommands.lines(cancelled))
    }

    static let refund = Command(
        "qr refund", "Refunds all or part of a cleared QR payment; the wallet answers within the terminal's apmRefundTimeout.",
        positional: (Opt.transaction, "TRANSACTION_ID"),
        options: [
            Opt.transaction.help("The cleared QR payment (or give it as the first argument)."),
            Opt.amount.help("Minor units, at most what is left of the payment."),
            Opt.reference.help("The merchant's reference."),
        ],
        examples: [
            #"tapsim qr refund "$(tapsim --field transaction.transactionId qr pay --amount 1250 --approve)" --amount 500"#,
            #"SALE=$(tapsim --field transaction.transactionId qr pay --amount 1000 --approve) && tapsim qr refund "$SALE" --amount 600 && tapsim qr refund "$SALE" --amount 500   # beyond the payment: refund_over_amount, exit 14"#,
        ]
    ) { context, options in
        let transaction = try options.required(Opt.transaction)
        let amount = try options.required(Opt.amount)
        try await context.initialize()
        try await context.resumeSession()
        return try await APMCommands.followRefund(
            context.sdk.doQRRefund(refundedTransactionId: transaction, refundAmount: amount, reference: options[Opt.reference]),
            context, payer: "the wallet", method: "QR")
    }

    /// The QR, drawn for the terminal, and the URL it holds.
    static func showQR(_ context: Context, _ order: APMTransaction) {
        guard let text = order.qrCode else { return }
        if let code = try? QRCode(text: text) { context.say(code.terminalText()) }
        context.say("\(order.brandFullName ?? order.brand?.rawValue ?? "Wallet"): scan the QR, or open \(text)")
    }
}
