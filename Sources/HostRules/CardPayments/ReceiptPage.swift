import HostStorage
import Foundation
import SandboxCore

/// The receipt a customer sees through its QR code or e-mail.
package enum ReceiptPage {
    package static func amount(_ minor: Int, _ code: String) -> String {
        let exponent = Currency(code: code)?.exponent ?? 2
        guard exponent > 0 else { return "\(minor) \(code)" }
        var scale = 1
        for _ in 0..<exponent { scale *= 10 }
        let sign = minor < 0 ? "-" : ""
        let whole = abs(minor) / scale
        let fraction = String(abs(minor) % scale)
        return "\(sign)\(whole).\(String(repeating: "0", count: exponent - fraction.count))\(fraction) \(code)"
    }

    /// The receipt's lines, top to bottom: who sold (by name, as the terminal shows it), what,
    /// and how it was paid.
    ///
    /// - Parameter merchant: the sale's merchant from the fixtures, or nil when the fixtures no
    ///   longer name it (then its id stands in for the name).
    package static func lines(_ record: TransactionRecord, merchant: Merchant?, region: Region) -> [(String, String)] {
        var lines: [(String, String)] = [("Merchant", merchant?.name ?? record.merchantID)]
        if let merchant {
            let address = [merchant.address1, merchant.address2].filter { !$0.isEmpty }.joined(separator: ", ")
            lines.append(("Address", address))
        }
        lines += [
            ("Merchant id", record.merchantID), ("Terminal", record.terminalID), ("Transaction", record.id),
            ("Date", Wire.time(record.createdAt)), ("Type", record.type == .REFUND ? "Refund" : "Sale"),
            ("Amount", amount(record.amount, record.currency)),
        ]
        if let tip = record.tipAmount { lines.append(("of which tip", amount(tip, record.currency))) }
        if let dcc = record.dccAmount, let currency = record.dccCurrency, record.dccStatus == .ACCEPTED {
            // What the cardholder must be told of a conversion: the amount, the rate and the markup.
            lines.append(("Charged in your currency", amount(dcc, currency)))
            if let rate = record.dccRate { lines.append(("Exchange rate", "1 \(record.currency) = \(number(rate)) \(currency)")) }
            if let markup = record.dccMarkup {
                let base = record.dccECB == true ? "the European Central Bank reference rate" : "the exchange rate"
                lines.append(("Markup", "\(number(markup)) % over \(base)"))
            }
        }
        if let card = record.maskedPAN { lines.append(("Card", "\(record.cardBrand ?? "") \(card)")) }
        // A QR wallet payment names its wallet and the wallet's own id of the payment; a BLIK
        // payment the customer's bank and its id.
        if record.paymentMethod == .BLIK {
            lines.append(("Paid with", "BLIK (code confirmed in the bank app)"))
            if let reference = record.apmProviderReference { lines.append(("BLIK reference", reference)) }
        } else if record.paymentMethod != .CARD {
            lines.append(("Paid with", "\(record.apmBrandFullName ?? record.cardBrand ?? "QR wallet") (QR wallet)"))
            if let reference = record.apmProviderReference { lines.append(("Wallet reference", reference)) }
        }
        if let auth = record.authID { lines.append(("Authorisation", auth)) }
        lines.append(("Status", record.status.rawValue))
        lines.append(("Acquirer", region.name))
        return lines
    }

    /// A rate or percentage as written in fx.json: `1.0842`, `3.5`, `162.31` (no trailing `.0`).
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    package static func text(_ record: TransactionRecord, merchant: Merchant?, region: Region) -> String {
        lines(record, merchant: merchant, region: region).map { "\($0.0): \($0.1)" }.joined(separator: "\n")
    }

    package static func html(_ record: TransactionRecord, merchant: Merchant?, region: Region) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let rows = lines(record, merchant: merchant, region: region).map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>" }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Receipt \(escape(record.id))</title>
            <style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;color:#1d2430}
            th{text-align:left;padding:.25rem 1rem .25rem 0;font-weight:600}td{padding:.25rem 0}</style></head>
            <body><h1>Receipt</h1><table id="receipt">\(rows.joined())</table>
            <p>TapSandbox: a test receipt, no money moved.</p></body></html>
            """
    }
}
