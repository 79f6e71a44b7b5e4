import CommandLineSupport
import Foundation
import SimulatedReader
import TapOnMobileSandbox

/// Every option of tapsim, declared once with the type its value is read as (the parse reads and
/// checks it, before a command runs). A command lists the keys it takes, each with its own help
/// (`Opt.amount.help("…")`), and reads them through the same keys (`options[Opt.amount]`).
enum Opt {
    // MARK: Global (before or after the command)

    static let env = OptionKey.text("env", "REGION")
    static let flavour = OptionKey.choice("flavour", "FLAVOUR", from: ["uat", "sandbox", "pre", "prod"])
    static let device = OptionKey.text("device", "DIR")
    static let endpoints = OptionKey.text("endpoints", "FILE")
    static let sandboxData = OptionKey.text("sandbox-data", "DIR")
    static let json = OptionKey.flag("json")
    static let field = OptionKey<String>("field", "PATH") { text throws(UsageError) in
        guard !text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw UsageError("--field takes a dotted path such as transaction.transactionId, not '\(text)'")
        }
        return text
    }
    static let realTime = OptionKey.flag("real-time")
    static let dryRun = OptionKey.flag("dry-run")

    // MARK: Money

    /// Minor units, 1 or more.
    static let amount = OptionKey.integer(
        "amount", "N", in: 1...Int(Int32.max), missing: "--amount N is required (minor units: 1250 is 12.50)")
    static let tip = OptionKey.integer("tip", "N", in: 0...Int(Int32.max))
    static let currency = OptionKey.text("currency", "CODE")
    static let installments = OptionKey.integer("installments", "N", in: 1...24)

    // MARK: What a command names

    static let transaction = OptionKey.text("transaction", "ID")
    /// PagBank's transaction code.
    static let transactionCode = OptionKey.text("transaction", "CODE")
    static let reference = OptionKey.text("reference", "TEXT")
    static let userRef = OptionKey.text("user-ref", "TEXT")
    static let orderID = OptionKey.text("order-id", "ID")
    static let checkout = OptionKey.text("checkout", "ID")
    static let token = OptionKey.text("token", "TOKEN")
    static let terminal = OptionKey.text("terminal", "TID")
    /// A vendor's terminal (MONEI's, Geopagos').
    static let terminalID = OptionKey.text("terminal", "ID")
    static let merchant = OptionKey.text("merchant", "ID")
    static let store = OptionKey.text("store", "ID")
    static let pos = OptionKey.text("pos", "ID")
    static let seller = OptionKey.text("seller", "ID")
    static let customer = OptionKey.text("customer", "ID")
    static let card = OptionKey.text("card", "NAME")
    static let brand = OptionKey.text("brand", "BRAND")
    static let email = OptionKey.text("email", "ADDRESS")
    static let reason = OptionKey.text("reason", "TEXT")
    static let callbackURL = OptionKey.text("callback-url", "URL")
    static let appKey = OptionKey.text("app-key", "KEY")
    static let challenge = OptionKey.text("challenge", "CODE")
    static let backofficeCode = OptionKey.text("backoffice-code", "CODE")
    /// A BLIK code, as the bank app shows it (`118 137`) or as digits alone.
    static let code = OptionKey<String>("code", "CODE") { text in text.filter { $0 != " " } }
    static let verification = OptionKey.text("verification", "CODE")

    // MARK: Secure codes

    static let pin = secureCode("pin")
    static let old = secureCode("old")
    static let new = secureCode("new")

    /// A secure code: 4 to 8 digits, checked before anything is sent.
    private static func secureCode(_ name: String) -> OptionKey<String> {
        OptionKey(name, "PIN") { text throws(UsageError) in
            guard (4...8).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw UsageError("--\(name) must be 4 to 8 digits, not '\(text)'")
            }
            return text
        }
    }

    // MARK: History and statistics

    static let from = date("from", endOfDay: false)
    static let to = date("to", endOfDay: true)
    static let statuses = list("status", from: TransactionStatus.allCases.map(\.rawValue))
    static let types = list("type", from: TransactionType.allCases.map(\.rawValue))
    static let methods = list("method", from: ["CARD", "QRCODE", "BLIK"])
    static let page = OptionKey.integer("page", "N", in: 1...1_000_000)
    static let perPage = OptionKey.integer("per-page", "N", in: 1...200)
    static let statisticsType = OptionKey.choice("type", "TYPE", from: ["daily", "brand"])
    static let serviceType = OptionKey.choice("type", "TYPE", from: TransactionServiceType.allCases.map(\.rawValue))

    /// A date or time (`2026-11-29` or ISO 8601). A date alone is a whole UTC day: its first
    /// instant, or with `endOfDay` its last (23:59:59.999), so `--from D --to D` is day D.
    private static func date(_ name: String, endOfDay: Bool) -> OptionKey<Date> {
        OptionKey(name, "DATE") { text throws(UsageError) in
            guard let date = Format.parseDate(text) else {
                throw UsageError("--\(name) must be a date (2026-11-29) or an ISO 8601 time (2026-11-29T12:00:00Z), not '\(text)'")
            }
            guard endOfDay, Format.isDay(text) else { return date }
            return date.addingTimeInterval(86_400 - 0.001)
        }
    }

    /// A comma-separated list of words from `choices` (upper-cased).
    private static func list(_ name: String, from choices: [String]) -> OptionKey<[String]> {
        OptionKey(name, "LIST") { text throws(UsageError) in
            let values = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }.filter { !$0.isEmpty }
            for value in values where !choices.contains(value) {
                throw UsageError("--\(name) takes \(choices.joined(separator: ", ")) (comma-separated), not '\(value)'")
            }
            return values
        }
    }

    // MARK: The customer and the app

    /// What the customer types when the reader asks for the PIN.
    static let pinEntry = OptionKey<PinEntry>(
        "pin-entry", "PIN",
        "What the customer types when the reader asks for the PIN: correct (the card's, default), wrong (the host declines 55), none (nothing within 60 s: TIMEOUT), or 4 to 12 digits."
    ) { text throws(UsageError) in
        guard let entry = PinEntry(argument: text) else {
            throw UsageError("--pin-entry must be correct, wrong, none or 4 to 12 digits, not '\(text)'")
        }
        return entry
    }

    static let approve = OptionKey.flag("approve")
    /// The customer declines at the wallet or in the bank app, for this reason.
    static let declineReason = OptionKey<APMDeclineReason>("decline", "REASON") { text throws(UsageError) in
        guard let reason = APMDeclineReason(rawValue: text.lowercased()) else {
            throw UsageError("--decline takes \(APMDeclineReason.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        return reason
    }
    static let decline = OptionKey.flag("decline")
    static let accept = OptionKey.flag("accept")
    static let expire = OptionKey.flag("expire")
    static let noAnswer = OptionKey.flag("no-answer")
    static let noWait = OptionKey.flag("no-wait")
    static let noTap = OptionKey.flag("no-tap")
    static let cancel = OptionKey.flag("cancel")
    static let byUser = OptionKey.flag("by-user")
    static let qr = OptionKey.flag("qr")
    static let nine = OptionKey.flag("nine")
    static let keep = OptionKey.flag("keep")
}
