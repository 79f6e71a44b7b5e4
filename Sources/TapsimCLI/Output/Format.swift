import Foundation
import TapOnMobileSandbox

/// How tapsim shows the SDK's models to people, and turns them into JSON.
enum Format {
    /// ISO 8601 UTC, whole seconds: `2026-11-29T12:00:00Z`.
    static func time(_ unix: Double) -> String { time(Date(timeIntervalSince1970: unix)) }

    static func time(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// Reads `2026-11-29T12:00:00Z`, with or without fractional seconds, or a plain `2026-11-29`.
    static func parseDate(_ text: String) -> Date? {
        let whole = ISO8601DateFormatter()
        if let date = whole.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }

    /// Whether `text` is a date without a time (`2026-11-29`).
    static func isDay(_ text: String) -> Bool {
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return text.count == 10 && day.date(from: text) != nil
    }

    /// ISO 8601 UTC with milliseconds (`2026-11-29T23:59:59.999Z`), for the host's date filters.
    static func wireTime(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func parseTime(_ text: String) -> Double? { parseDate(text)?.timeIntervalSince1970 }

    /// `12.50 EUR` from 1250 minor units (the currency's exponent, 2 when unknown).
    static func amount(_ minor: Int, _ currency: Currency?) -> String {
        amount(minor, code: currency?.code ?? "", exponent: currency?.exponent ?? 2)
    }

    static func amount(_ minor: Int, code: String, exponent: Int = 2) -> String {
        let sign = minor < 0 ? "-" : ""
        let value = abs(minor)
        guard exponent > 0 else { return "\(sign)\(value) \(code)".trimmingCharacters(in: .whitespaces) }
        var divisor = 1
        for _ in 0..<exponent { divisor *= 10 }
        let fraction = String(value % divisor)
        let padded = String(repeating: "0", count: exponent - fraction.count) + fraction
        return "\(sign)\(value / divisor).\(padded) \(code)".trimmingCharacters(in: .whitespaces)
    }

    /// One line for a transaction: `CLEARED  sale 12.50 EUR  VISA 476173******0011  00 Approved  id …`.
    static func summary(_ detail: TransactionDetail) -> String {
        var parts = [
            detail.transactionStatus.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0),
            (detail.transactionType == .REFUND ? "refund " : "sale ") + amount(detail.transactionAmount, detail.currency),
        ]
        if let tip = detail.tipAmount, tip > 0 { parts.append("(tip \(amount(tip, detail.currency)))") }
        let card = [detail.cardType, detail.cardNumber.isEmpty ? nil : detail.cardNumber].compactMap { $0 }.joined(separator: " ")
        if !card.isEmpty { parts.append(card) }
        if let code = detail.responseCode {
            parts.append([code, detail.responseMsg].compactMap { $0 }.joined(separator: " "))
        }
        parts.append("id \(detail.transactionId)")
        return parts.joined(separator: "  ")
    }

    /// The detail's fields worth a line each.
    static func lines(_ detail: TransactionDetail) -> [String] {
        var lines = [summary(detail)]
        var facts: [(String, String?)] = [
            ("date", time(detail.transactionDate)), ("terminal", detail.terminalId),
            ("auth id", detail.authId.isEmpty ? nil : detail.authId), ("application", detail.applicationLabel),
            ("cancellable", detail.cancellable ? "yes" : "no"), ("refund of", detail.refundedTransactionId),
        ]
        if detail.transactionStatus == .REFUNDED {
            facts.append(("refunded", detail.refundedDate.map(time)))
        }
        if let dccAmount = detail.dccAmount, let dccCurrency = detail.dccCurrency {
            facts.append(("DCC offer", "\(amount(dccAmount, dccCurrency)) at \(detail.dccExchangeRate.map { String($0) } ?? "?") (\(detail.dccStatus?.rawValue ?? "OFFERED"))"))
        }
        for (name, value) in facts {
            guard let value else { continue }
            lines.append("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(value)")
        }
        return lines
    }

    static func line(_ item: TransactionHistoryItem) -> String {
        [
            time(item.transactionDate),
            item.transactionStatus.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0),
            (item.transactionType == .REFUND ? "refund " : "sale   ") + amount(item.amount, item.currency),
            item.cardType ?? item.paymentMethod.rawValue,
            item.transactionId,
        ].joined(separator: "  ")
    }
}

extension JSONValue {
    /// A transaction detail with the seed's keys (`transactionId`, `transactionStatus`, `AID` …).
    init(_ detail: TransactionDetail) { self.init(encoding: detail) }
}
