import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// `demo`: the whole journey on a fresh device, each step printed with what the SDK answered.
enum Demo {
    static let command = Command(
        "demo",
        "A guided walk on a fresh device: register, login, prepare, two sales, history, refund, reversal, statistics, unregister.",
        options: [
            Opt.pin.help("The secure code the demo registers with.", default: "2468"),
            Opt.terminal.help("The terminal to register on (default: a free one)."),
            Opt.keep.help("Keep the demo device registered (its folder is printed) instead of unregistering it."),
        ],
        examples: ["tapsim demo", "tapsim --env MBANK demo", "tapsim --json demo"]
    ) { outer, options in
        let pin = options[Opt.pin] ?? "2468"
        let keep = options[Opt.keep]
        // A device of its own, so the demo never touches the device of --device.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapsim-demo-\(UUID().uuidString.prefix(8))")
        let context = try Context(globals: outer.globals, deviceDirectory: folder)
        let walk = Walk(context)
        do {
            try await walk.run(pin: pin, terminal: options[Opt.terminal], keep: keep)
        } catch let error as UsageError {
            try? FileManager.default.removeItem(at: folder)
            throw error
        } catch {
            var failure = Failure(any: error)
            failure.context.append(("steps", .array(walk.steps)))
            if !keep { _ = await context.sdk.unregister() }
            try? FileManager.default.removeItem(at: folder)
            throw failure
        }
        if !keep { try? FileManager.default.removeItem(at: folder) }
        return Report(
            [("steps", .array(walk.steps)), ("deviceDirectory", keep ? .string(folder.path) : .null)],
            lines: ["", "Demo finished: \(walk.steps.count) steps." + (keep ? " The device stays in \(folder.path)." : "")])
    }

    /// The steps, printed as they happen.
    final class Walk {
        let context: Context
        var steps: [JSONValue] = []

        init(_ context: Context) {
            self.context = context
        }

        func step(_ title: String, _ fields: [(String, JSONValue)], _ lines: [String]) {
            steps.append(.object([("step", .string(title))] + fields))
            context.say("\(steps.count). \(title)")
            for line in lines { context.say("   " + line) }
        }

        func run(pin: String, terminal: String?, keep: Bool) async throws {
            let sdk = context.sdk
            let data = try context.sandboxData().region(context.region)
            // Cards of the region's country, so no sale stops at a DCC offer.
            let cards = try context.domesticCards()
            let (cardOne, cardTwo) = (cards[0], cards[1])
            try await context.initialize()
            step(
                "Initialize the SDK for \(context.environment.rawValue)", [("host", .string(context.host.absoluteString))],
                ["Host \(context.host.absoluteString), fresh device in \(context.deviceDirectory.path)"])

            let challenge = try await sdk.beginRegistration().value()
            step("Begin a portal registration", [("challengeCode", .string(challenge))], ["Challenge code \(challenge)"])
            let backOffice = BackOffice(host: context.host, key: data.backOfficeKey)
            let chosen: String
            if let terminal {
                chosen = terminal
            } else {
                chosen = try await Registration.freeTerminal(backOffice, data, method: "portal", everyCommand: true)
            }
            let confirmation = try await backOffice.confirm(challengeCode: challenge, terminalId: chosen)
            step(
                "The merchant confirms it in the back office",
                [("terminalId", .string(confirmation.terminalId)), ("backofficeCode", .string(confirmation.backofficeCode))],
                ["Terminal \(confirmation.terminalId), back-office code \(confirmation.backofficeCode)"])
            _ = try await sdk.endRegistration(backofficeCode: confirmation.backofficeCode, pin: pin).value()
            step("End the registration with secure code \(pin)", [("registered", true)], ["Registered"])

            _ = try await sdk.doLogin(pin: pin).value()
            let expires = try await sdk.getSessionExpiration().value()
            step("Log in", [("sessionExpiresAt", .string(Format.time(expires)))], ["Session until \(Format.time(expires))"])

            let info = try await sdk.getTerminalInfo().value()
            let currency = info.currency.code
            step(
                "Read the terminal", [("currency", .string(currency)), ("merchantName", .string(info.merchantName))],
                ["\(info.merchantName), \(currency), limit \(Format.amount(info.limitAmount, info.currency))"])

            let bar = ProgressBar(style: .detect(json: context.json), label: "   Preparing the reader")
            let listener = ProgressListener(bar)
            sdk.addPrepareDeviceListener(listener)
            let prepared = await sdk.prepareDeviceAndWait()
            sdk.removePrepareDeviceListener(listener)
            bar.finish()
            _ = try prepared.value()
            step("Prepare the reader", [("percentage", .int(sdk.getPrepareDevicePercentage()))], ["Ready"])

            let first = try await sale(1250, currency, card: cardOne)
            let second = try await sale(850, currency, card: cardTwo)

            let history = try await sdk.fetchTransactionsHistory(
                page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "", filterStatus: [], filterType: []
            ).value()
            step(
                "Read the history", [("total", .int(history.total))],
                ["\(history.total) transactions"] + history.items.map { Format.line($0) })

            // The first sale is no longer the latest, so it cannot be reversed: it is refunded.
            try context.useCard(named: cardOne)
            var refund: TransactionDetail?
            for await event in sdk.doRefund(
                currency: currency, requestedAmount: first.transactionAmount, transactionId: first.transactionId, reference: nil)
            {
                switch event {
                case .success(.completed(let detail)): refund = detail
                case .success: break
                case .failure(let error): throw error
                }
            }
            guard let refund else { throw TapOnMobileError.transaction(TransactionError(.incomplete)) }
            step(
                "Refund the first sale (the customer taps \(cardOne) again)", [("transaction", JSONValue(refund))],
                [Format.summary(refund)])

            let reversal = try await sdk.doReversal(transactionId: second.transactionId).value()
            step(
                "Reverse the second sale (the latest, within 30 minutes)",
                [("transactionId", .string(second.transactionId)), ("transactionStatus", JSONValue(reversal.transactionStatus?.rawValue))],
                ["\(second.transactionId) is \(reversal.transactionStatus?.rawValue ?? "reversed")"])

            let statistics = try await sdk.getTransactionsStatistics(
                fromDate: Format.parseDate("2000-01-01")!, toDate: Format.parseDate("2100-01-01")!, statisticsType: .brand
            ).value()
            step(
                "Statistics per brand", [("statistics", JSONValue(encoding: statistics))],
                statistics.map { "\($0.description): \($0.items.reduce(0) { $0 + ($1.count ?? 0) }) cleared" })

            if !keep {
                _ = try await sdk.unregister().value()
                step("Unregister (the terminal is free again)", [("unregistered", true)], ["Done"])
            }
        }

        private func sale(_ amount: Int, _ currency: String, card: String) async throws -> TransactionDetail {
            try context.useCard(named: card)
            var final: TransactionDetail?
            var events: [JSONValue] = []
            for await event in context.sdk.doPayment(currency: currency, requestedAmount: amount, reference: nil) {
                switch event {
                case .success(.displayingCardReader): events.append("displayingCardReader")
                case .success(.enteringPin): events.append("enteringPin")
                case .success(.processing): events.append("processing")
                case .success(.finishProcessing): events.append("finishProcessing")
                case .success(.completed(let detail)):
                    events.append("completed")
                    final = detail
                case .failure(let error): throw error
                }
            }
            guard let final else { throw TapOnMobileError.transaction(TransactionError(.incomplete)) }
            step(
                "Pay \(Format.amount(amount, code: currency)): the customer taps \(card)",
                [("events", .array(events)), ("transaction", JSONValue(final))], [Format.summary(final)])
            guard final.transactionStatus == .CLEARED else {
                throw TapOnMobileError.transaction(
                    TransactionError(.declined, code: final.responseCode, message: "The demo sale ended \(final.transactionStatus.rawValue)."))
            }
            return final
        }
    }
}
