import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// Receipts (QR page, e-mail to the back-office mailbox) and merchant checkouts.
@Suite("Card payments: receipts and checkouts")
struct ReceiptCheckoutTests {
    @Test("receipts: QR gives a URL whose HTML page names the transaction and amount; e-mail lands in the mailbox; bad e-mail refused")
    func receipts() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let sale = try await till.cleared(amount: 1250, "sale 12.50")
            let amountText = "12.50"

            let qr = expectReply(await till.receipt(sale, type: "QR"), 200, nil, "\(l) QR receipt")
            #expect(qr.string("status") == "GENERATED", "\(l) QR receipt status: \(qr)")
            let url = try #require(qr.string("url"), "\(l) QR receipt gives no url: \(qr)")
            let page = expectReply(await till.service.fetch(url), 200, nil, "\(l) open the receipt page")
            #expect(
                page.header("Content-Type")?.lowercased().hasPrefix("text/html") == true,
                "\(l) the receipt page is not HTML: \(String(describing: page.header("Content-Type")))")
            #expect(page.text.contains("<html"), "\(l) receipt page is not an HTML document: \(page)")
            #expect(page.text.contains(sale), "\(l) the receipt page does not name transaction \(sale): \(page)")
            #expect(page.text.contains(amountText), "\(l) the receipt page does not show \(amountText): \(page)")
            expectReply(
                await till.service.fetch(till.service.baseURL + "/receipts/" + String(repeating: "0", count: 32)), 404, nil,
                "\(l) an unknown receipt")

            let mailsBefore = (expectReply(await host.mailbox(), 200, nil, "\(l) mailbox").array("messages") ?? []).count
            let email = "customer-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let sent = expectReply(await till.receipt(sale, type: "EMAIL", email: email), 200, nil, "\(l) e-mail receipt")
            #expect(sent.string("status") == "SENT", "\(l) e-mail receipt status: \(sent)")
            let mailbox = expectReply(await host.mailbox(), 200, nil, "\(l) mailbox after the e-mail receipt")
            let messages = mailbox.array("messages") as? [[String: Any]] ?? []
            let mail = messages.first { $0["to"] as? String == email }
            #expect(mail != nil, "\(l) no message to \(email) in the back-office mailbox: \(mailbox)")
            let text = "\(mail?["subject"] ?? "") \(mail?["body"] ?? "")"
            #expect(text.contains(sale) && text.contains(amountText), "\(l) the mail names neither \(sale) nor \(amountText): \(text)")

            for (bad, step) in [("not-an-email", "an e-mail without @"), ("a@b", "an e-mail without a dot domain"), ("", "an empty e-mail")] {
                expectReply(await till.receipt(sale, type: "EMAIL", email: bad), 400, "invalid_request", "\(l) e-mail receipt to \(step)")
            }
            expectReply(await till.receipt(sale, type: "EMAIL"), 400, "invalid_request", "\(l) e-mail receipt without e-mail")
            expectReply(await till.receipt(sale, type: "SMS"), 400, "invalid_request", "\(l) receiptType SMS")
            let after = (expectReply(await host.mailbox(), 200, nil, "\(l) mailbox at the end").array("messages") ?? []).count
            #expect(after == mailsBefore + 1, "\(l) refused receipts must send no mail (\(mailsBefore) → \(after))")
        }
    }

    @Test("receipts name the merchant as its terminal does (name and address, id beneath); a DCC receipt shows the rate and the markup")
    func receiptContents() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let merchant = try #require(host.merchant(owning: till.id), "\(l) merchants.json names no merchant of \(till.id)")
            func html(_ text: String) -> String {
                text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            }
            func page(_ transaction: String, _ step: String) async throws -> String {
                let qr = expectReply(await till.receipt(transaction, type: "QR"), 200, nil, "\(l) QR receipt of \(step)")
                let url = try #require(qr.string("url"), "\(l) QR receipt of \(step) gives no url: \(qr)")
                return expectReply(await till.service.fetch(url), 200, nil, "\(l) receipt page of \(step)").text
            }

            let sale = try await till.cleared(amount: 1250, "sale 12.50")
            let plain = try await page(sale, "a sale")
            #expect(plain.contains("<th>Merchant</th><td>\(html(merchant.name))</td>"), "\(l) the receipt names \(merchant.name): \(plain)")
            #expect(plain.contains(html(merchant.address1)), "\(l) the receipt gives the merchant's address: \(plain)")
            #expect(plain.contains("<th>Merchant id</th><td>\(merchant.id)</td>"), "\(l) the merchant id stays as a line of its own: \(plain)")
            #expect(!plain.contains("Exchange rate"), "\(l) no DCC lines without DCC: \(plain)")

            let email = "customer-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            expectReply(await till.receipt(sale, type: "EMAIL", email: email), 200, nil, "\(l) e-mail receipt")
            let messages = expectReply(await host.mailbox(), 200, nil, "\(l) mailbox").array("messages") as? [[String: Any]] ?? []
            let mail = try #require(messages.first { $0["to"] as? String == email }, "\(l) no receipt mail to \(email)")
            let body = mail["body"] as? String ?? ""
            #expect(body.contains("Merchant: \(merchant.name)\n"), "\(l) the mailed receipt names \(merchant.name): \(body)")
            #expect((mail["subject"] as? String)?.contains(merchant.name) == true, "\(l) the subject names the merchant: \(mail)")

            // DCC accepted: the cardholder's amount, the base rate and the markup over it, as fx.json has them.
            let fx = try FX.load()
            let rate = try #require(fx.rates[host.currency]?["USD"], "\(l) fx.json has no \(host.currency)→USD rate")
            let offered = expectTransaction(try await till.pay("visa-us-dcc", amount: 2000), 201, "DCC_REQUIRED", "\(l) DCC offer")
            let dccSale = try #require(offered.transactionId)
            expectTransaction(await till.dcc(dccSale, accepted: true), 200, "CLEARED", "\(l) DCC accepted")
            let dcc = try await page(dccSale, "a DCC sale")
            let charged = try #require(fx.amount(2000, from: host.currency, to: "USD"))
            #expect(dcc.contains(String(format: "%d.%02d USD", charged / 100, charged % 100)), "\(l) the DCC receipt shows the USD amount: \(dcc)")
            #expect(dcc.contains("<th>Exchange rate</th><td>1 \(host.currency) = \(rate) USD</td>"), "\(l) the DCC receipt shows the rate: \(dcc)")
            let base = fx.ecb ? "the European Central Bank reference rate" : "the exchange rate"
            #expect(dcc.contains("<th>Markup</th><td>\(fx.markup) % over \(base)</td>"), "\(l) the DCC receipt shows the markup: \(dcc)")

            // DCC declined: paid in the terminal's currency, so the receipt shows no conversion.
            let refused = expectTransaction(try await till.pay("visa-us-dcc", amount: 3000), 201, "DCC_REQUIRED", "\(l) second DCC offer")
            let refusedSale = try #require(refused.transactionId)
            expectTransaction(await till.dcc(refusedSale, accepted: false), 200, "CLEARED", "\(l) DCC declined")
            let local = try await page(refusedSale, "a sale whose DCC offer was declined")
            #expect(!local.contains("Exchange rate") && !local.contains("Charged in your currency"), "\(l) no DCC lines after declining: \(local)")
        }
    }

    @Test("checkouts: a matching sale consumes it once (checkout_used after), a mismatch is checkout_mismatch, unknown is checkout_not_found")
    func checkouts() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let other = try await Till.open(host, try host.second(besides: till.id))
            let l = till.label
            let key = try #require(host.apiKey(owning: till.id))

            func checkout(_ body: [String: Any], bearer: String? = nil) async -> HTTPReply {
                await host.service.call("POST", "/merchant/v1/checkouts", bearer: bearer ?? key, body: body)
            }
            let created = expectReply(
                await checkout(["terminalId": till.id, "amount": 4200, "currency": till.currency, "tipAmount": 200, "reference": "CO-42"]),
                201, nil, "\(l) merchant creates a checkout")
            let id = try #require(created.string("checkoutId"), "\(l) no checkoutId: \(created)")
            #expect(parseTime(created["expiresAt"]) != nil, "\(l) checkout expiresAt: \(created)")

            let payload = try await till.tap("visa", amount: 4200)
            await till.refused(409, "checkout_mismatch", "checkout sale with another amount") {
                await till.sale(amount: 4300, tip: 200, reference: "CO-42", payload: payload, checkout: id)
            }
            await till.refused(409, "checkout_mismatch", "checkout sale with another tip") {
                await till.sale(amount: 4200, tip: 100, reference: "CO-42", payload: payload, checkout: id)
            }
            await till.refused(409, "checkout_mismatch", "checkout sale with another reference") {
                await till.sale(amount: 4200, tip: 200, reference: "CO-43", payload: payload, checkout: id)
            }
            await till.refused(409, "checkout_mismatch", "checkout sale without the reference") {
                await till.sale(amount: 4200, tip: 200, payload: payload, checkout: id)
            }
            var bytes = [UInt8](try #require(Data(base64Encoded: payload)))
            bytes[bytes.count - 1] ^= 0x80
            await till.refused(400, "card_payload_invalid", "checkout sale with a tampered card") {
                await till.sale(amount: 4200, tip: 200, reference: "CO-42", payload: Data(bytes).base64EncodedString(), checkout: id)
            }
            await other.refused(404, "checkout_not_found", "\(till.id)'s checkout used on \(other.id)") {
                await other.sale(amount: 4200, tip: 200, reference: "CO-42", checkout: id)
            }
            let paid = expectTransaction(
                await till.sale(amount: 4200, tip: 200, reference: "CO-42", payload: payload, checkout: id), 201, "CLEARED",
                "\(l) the matching checkout sale")
            #expect(paid.string("externalID") == "CO-42" && paid.int("tipAmount") == 200, "\(l) checkout sale: \(paid)")
            let again = try await till.tap("visa", amount: 4200)
            await till.refused(409, "checkout_used", "the same checkout again") {
                await till.sale(amount: 4200, tip: 200, reference: "CO-42", payload: again, checkout: id)
            }
            await till.refused(404, "checkout_not_found", "an unknown checkout") {
                await till.sale(amount: 4200, tip: 200, reference: "CO-42", payload: again, checkout: "co_000000000000000000000000")
            }

            // The merchant API's own refusals.
            expectReply(
                await checkout(["terminalId": till.id, "amount": 100, "currency": till.currency], bearer: "sk_wrong"), 401, "unauthorized",
                "\(l) checkout with a wrong api key")
            let stranger = try #require(host.fixture.merchants.first { !$0.terminals.contains { $0.id == till.id } }?.terminals.first)
            expectReply(
                await checkout(["terminalId": stranger.id, "amount": 100, "currency": till.currency]), 404, "terminal_not_found",
                "\(l) checkout for another merchant's terminal \(stranger.id)")
            expectReply(
                await checkout(["terminalId": till.id, "amount": 0, "currency": till.currency]), 400, "invalid_amount",
                "\(l) checkout of amount 0")
        }
    }
}
