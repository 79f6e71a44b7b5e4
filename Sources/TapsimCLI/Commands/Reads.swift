import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// Last transaction, history, count, details, statistics, receipts and validation.
enum Reads {
    static let filterOptions: [any OptionDeclaring] = [
        Opt.from.help("From this date or time (2026-11-29: the start of that UTC day; or ISO 8601)."),
        Opt.to.help("Up to this date or time (2026-11-29: the end of that UTC day, so --from D --to D is day D)."),
        Opt.statuses.help("Statuses, comma-separated (CLEARED,DECLINED,REFUNDED,…)."),
        Opt.types.help("AUTH and/or REFUND, comma-separated."),
        Opt.methods.help("CARD, QRCODE and/or BLIK, comma-separated (default: all)."),
    ]

    struct Filters {
        var from: String
        var to: String
        var status: [String]
        var type: [String]
        var method: [String]

        init(_ options: ParsedArguments) throws(UsageError) {
            let start = options[Opt.from]
            let end = options[Opt.to]
            if let start, let end, start > end { throw UsageError("--from must not be after --to") }
            from = start.map(Format.wireTime) ?? ""
            to = end.map(Format.wireTime) ?? ""
            status = (options[Opt.statuses] ?? [])
            type = (options[Opt.types] ?? [])
            method = (options[Opt.methods] ?? [])
            if method.isEmpty { method = ["CARD", "QRCODE", "BLIK"] }
        }
    }

    static let last = Command(
        "last", "Shows the last cleared transaction made on this device, from the device's own storage (no host call).",
        examples: ["tapsim pay --amount 1250 && tapsim last", "tapsim --field transaction.transactionId last"]
    ) { context, _ in
        try await context.initialize()
        let detail = try await context.sdk.getLastTransaction().value()
        return Report([("transaction", JSONValue(detail))], lines: Format.lines(detail))
    }

    static let history = Command(
        "history", "Lists the terminal's transactions, newest first.",
        options: [
            Opt.page.help("The page, from 1.", default: "1"),
            Opt.perPage.help("Items per page, 1 to 200.", default: "20"),
        ] + filterOptions,
        examples: [
            "tapsim history", "tapsim --json history --status CLEARED,REFUNDED --type AUTH",
            "tapsim history --from 2026-12-01 --to 2026-12-01   # that whole UTC day",
        ]
    ) { context, options in
        let page = options[Opt.page] ?? 1
        let perPage = options[Opt.perPage] ?? 20
        let filters = try Filters(options)
        try await context.initialize()
        try await context.resumeSession()
        let result = try await context.sdk.fetchTransactionsHistory(
            page: page, itemsPerPage: perPage, dateFrom: filters.from, dateTo: filters.to, filterStatus: filters.status,
            filterType: filters.type, filterPaymentMethod: filters.method
        ).value()
        var lines = ["\(result.total) transaction\(result.total == 1 ? "" : "s"); page \(result.page), \(result.items.count) shown:"]
        lines += result.items.map { "  " + Format.line($0) }
        return Report([("history", JSONValue(encoding: result))], lines: lines)
    }

    static let count = Command(
        "count", "Counts the terminal's transactions (same filters as history).", options: filterOptions,
        examples: ["tapsim count --status DECLINED", "tapsim count --from 2026-12-01 --to 2026-12-31"]
    ) { context, options in
        let filters = try Filters(options)
        try await context.initialize()
        try await context.resumeSession()
        // The seed's count has no payment-method BLIK default; ours counts whatever the filter says.
        let result = try await context.sdk.fetchTransactionsCount(
            page: 1, itemsPerPage: 20, dateFrom: filters.from, dateTo: filters.to, filterStatus: filters.status,
            filterType: filters.type, filterPaymentMethod: filters.method
        ).value()
        return Report([("count", .int(result.count))], lines: ["\(result.count) transaction\(result.count == 1 ? "" : "s")."])
    }

    static let details = Command(
        "details", "Shows one transaction, by id or by reference.",
        options: [
            Opt.transaction.help("The transaction id."),
            Opt.reference.help("Or the merchant's reference."),
        ],
        examples: [
            #"tapsim details --transaction "$(tapsim --field transaction.transactionId pay --amount 1250)""#,
            "tapsim pay --amount 1250 --reference INV-8 && tapsim details --reference INV-8",
        ]
    ) { context, options in
        let id = options[Opt.transaction]
        let reference = options[Opt.reference]
        guard id != nil || reference != nil else { throw UsageError("--transaction ID or --reference TEXT is required") }
        try await context.initialize()
        try await context.resumeSession()
        let detail = try await context.sdk.fetchTransactionDetails(transactionId: id, reference: reference).value()
        return Report([("transaction", JSONValue(detail))], lines: Format.lines(detail))
    }

    static let stats = Command(
        "stats", "Shows cleared sales per day or per card brand.",
        options: [
            Opt.statisticsType.help("daily or brand.", default: "daily"),
            Opt.from.help("From this date or time (default: 2000-01-01; a date is the start of that UTC day)."),
            Opt.to.help("Up to this date or time (default: 2100-01-01; a date is the end of that UTC day)."),
        ],
        examples: ["tapsim stats", "tapsim stats --type brand --from 2026-11-01", "tapsim stats --from 2026-12-01 --to 2026-12-01"]
    ) { context, options in
        let type = TransactionsStatisticsType(rawValue: options[Opt.statisticsType] ?? "daily")!
        let from = options[Opt.from] ?? Format.parseDate("2000-01-01")!
        let to = options[Opt.to] ?? Format.parseDate("2100-01-01")!
        guard from <= to else { throw UsageError("--from must not be after --to") }
        try await context.initialize()
        try await context.resumeSession()
        let statistics = try await context.sdk.getTransactionsStatistics(fromDate: from, toDate: to, statisticsType: type).value()
        var lines = statistics.isEmpty ? ["No cleared sales in that period."] : []
        // The statistics carry no currency: it is the terminal's (people only; JSON keeps minor units).
        let currency = context.json ? nil : try? await context.sdk.getTerminalInfo().value().currency
        for group in statistics {
            let amount = group.items.reduce(0) { $0 + $1.amount }
            let count = group.items.reduce(0) { $0 + ($1.count ?? 0) }
            let total = currency.map { Format.amount(amount, $0) } ?? "\(amount) (minor units)"
            lines.append("\(group.description.padding(toLength: 12, withPad: " ", startingAt: 0))  \(count) sale\(count == 1 ? "" : "s")  \(total)")
        }
        return Report(
            [("type", .string(type.rawValue)), ("statistics", JSONValue(encoding: statistics))], lines: lines)
    }

    static let receipt = Command(
        "receipt", "Makes the digital receipt of a transaction: a QR URL, or an e-mail (to the back-office mailbox).",
        options: [
            Opt.transaction.help("The transaction."),
            Opt.qr.help("A URL of the receipt page, to show as a QR code."),
            Opt.email.help("Send it to this address instead."),
        ],
        examples: [
            #"tapsim receipt --transaction "$(tapsim --field transaction.transactionId pay --amount 1250)" --qr"#,
            #"tapsim receipt --transaction "$(tapsim --field transaction.transactionId last)" --email buyer@example.com"#,
        ]
    ) { context, options in
        let transaction = try options.required(Opt.transaction)
        let email = options[Opt.email]
        guard options[Opt.qr] != (email != nil) else { throw UsageError("give exactly one of --qr and --email ADDRESS") }
        try await context.initialize()
        try await context.resumeSession()
        let confirmation = try await context.sdk.getDigitalReceipt(
            from: transaction, receiptType: email == nil ? .qrCode : .email, email: email
        ).value()
        let line = email.map { "Receipt sent to \($0) (\(confirmation.status.rawValue))." }
            ?? "Receipt \(confirmation.status.rawValue): \(confirmation.url ?? "(no URL)")"
        return Report([("receipt", JSONValue(encoding: confirmation))], lines: [line])
    }

    static let validate = Command(
        "validate", "Asks the host whether a transaction would be allowed (amount, limits, location), without one.",
        options: [
            Opt.serviceType.help("PAYMENT, REFUND or REVERSAL."),
            Opt.amount.help("The amount in minor units."),
            Opt.reference.help("A reference to check against the terminal's pattern."),
        ],
        examples: [
            "tapsim validate --type PAYMENT --amount 1250",
            "tapsim validate --type PAYMENT --amount 2000000   # over the terminal's limit: amount_over_limit, exit 14",
        ]
    ) { context, options in
        guard let type = options[Opt.serviceType] else {
            throw UsageError("--type PAYMENT|REFUND|REVERSAL is required")
        }
        let amount = options[Opt.amount]
        try await context.initialize()
        try await context.resumeSession()
        _ = try await context.sdk.validateTransaction(
            transactionServiceType: TransactionServiceType(rawValue: type)!, requestedAmount: amount, validate: options[Opt.reference]
        ).value()
        return Report(
            [("valid", true), ("type", .string(type)), ("amount", JSONValue(amount))],
            lines: ["Allowed: \(type.lowercased())" + (amount.map { " of \($0) (minor units)" } ?? "") + "."])
    }
}
