import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// What `tapsim qr …` and `tapsim blik …` share: following an APM payment or refund to its end,
/// playing its customer at the wallet or the bank app, and printing the result.
enum APMCommands {
    /// Follows `stream` to its `.completed` event, recording each event's name; `handle` sees the
    /// other events and answers true to stop early (`qr pay --no-wait`, with the transaction it saw).
    ///
    /// - Returns: the events seen and the final transaction (or the one `handle` stopped at).
    static func follow(
        _ stream: AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>, what: String,
        _ handle: (APMTransactionProcessEvent, _ events: [JSONValue]) async throws -> APMTransaction? = { _, _ in nil }
    ) async throws -> (events: [JSONValue], final: APMTransaction) {
        var events: [JSONValue] = []
        for await result in stream {
            switch result {
            case .success(.completed(let transaction)):
                events.append("completed")
                return (events, transaction)
            case .success(let event):
                events.append(.string(name(of: event)))
                if let stoppedAt = try await handle(event, events) { return (events, stoppedAt) }
            case .failure(let error):
                throw Failure(error, context: [("events", .array(events))])
            }
        }
        throw TapOnMobileError.transaction(TransactionError(.incomplete, message: "\(what)'s events ended without a result."))
    }

    /// An event's name in the report's `events`.
    static func name(of event: APMTransactionProcessEvent) -> String {
        switch event {
        case .displayBrands: "displayBrands"
        case .displayQR: "displayQR"
        case .processing: "processing"
        case .completed: "completed"
        }
    }

    /// Plays the customer: `action` on the order at the wallet (the pay page's or the bank app's
    /// buttons, through the wallet's API), said as `place` says it.
    ///
    /// - Returns: the report's field of what the customer did (`wallet` or `bank`).
    static func act(
        _ action: WalletCustomer.Action, on transaction: APMTransaction, at place: (name: String, verb: (WalletCustomer.Action) -> String),
        _ wallet: WalletCustomer, _ context: Context, events: [JSONValue]
    ) async throws -> JSONValue {
        let answer: WalletProvider.Order
        do throws(TapOnMobileError) {
            answer = try await wallet.perform(action, orderId: transaction.transactionId)
        } catch {
            throw Failure(error, context: [("events", .array(events)), ("transaction", JSONValue(encoding: transaction))])
        }
        context.say("The customer chose \(place.verb(action)) in the \(place.name): order \(answer.status.rawValue).")
        // The wallet has its answer from the host (unless it still retries): poll now.
        if answer.status != .paying { context.customerClock.hurry() }
        return ["action": .string(place.verb(action)), "status": .string(answer.status.rawValue), "reason": JSONValue(answer.reason)]
    }

    /// `--approve`, `--decline REASON` or the command's own third choice (`--expire`, `--no-answer`),
    /// at most one: `nil` when none (a person answers on the page).
    static func customerAction(
        _ options: ParsedArguments, third: (flag: OptionKey<Bool>, action: WalletCustomer.Action?)
    ) throws -> WalletCustomer.Action?? {
        var actions: [WalletCustomer.Action?] = []
        if options[Opt.approve] { actions.append(.pay) }
        if let reason = options[Opt.declineReason] { actions.append(.decline(reason)) }
        if options[third.flag] { actions.append(third.action) }
        guard actions.count <= 1 else { throw UsageError("give at most one of --approve, --decline and --\(third.flag.name)") }
        return actions.first
    }

    /// Follows a QR or BLIK refund (`qr refund`, `blik refund`) to its end: the events seen, the
    /// REFUND transaction, and its outcome when it did not clear.
    static func followRefund(
        _ stream: AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>>, _ context: Context, payer: String, method: String
    ) async throws -> Report {
        let (events, final) = try await follow(stream, what: "The \(method) refund") { event, _ in
            if case .processing = event { context.say("The refund is with \(payer)…") }
            return nil
        }
        return report([("events", .array(events)), ("transaction", JSONValue(encoding: final))], final)
    }

    /// The report of a finished APM payment or refund: `fields`, the `outcome` when it did not
    /// clear, and its lines.
    static func report(_ fields: [(String, JSONValue)], _ final: APMTransaction, extraLines: [String] = [], outcome: Bool = true) -> Report {
        var fields = fields
        if outcome, let field = outcomeField(final) { fields.append(field) }
        return Report(fields, lines: lines(final) + extraLines)
    }

    /// The report's `outcome` field of an APM transaction that did not clear: its kind, code and message.
    static func outcomeField(_ transaction: APMTransaction) -> (String, JSONValue)? {
        transaction.toTransactionDetail().outcomeError.map { outcome in
            ("outcome", ["kind": .string(outcome.kind), "code": .string(outcome.code), "message": .string(outcome.message)])
        }
    }

    /// A QR or BLIK payment or refund in tapsim's transaction lines, with its brand and decline reason.
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
