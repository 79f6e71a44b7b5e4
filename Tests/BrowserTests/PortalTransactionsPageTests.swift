import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// The portal's "Transactions" and "Statistics" pages after real sales from `tapsim`.
@Suite(.serialized, .blocksThreads) struct PortalTransactionsPageTests {
    static let available = BrowserPerson.isAvailable

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func aSaleIsFoundWithEveryFieldItsReceiptAndInTheExportAndStatistics() throws {
        let bench = try PortalBench()
        _ = try bench.tapsim("register quick", "--pin", "1234")
        _ = try bench.tapsim("login", "--pin", "1234")
        _ = try bench.tapsim("prepare")
        let sale = try bench.tapsim("pay", "--amount", "1250", "--reference", "INV-PORTAL-1")
        let id = try #require((sale["transaction"] as? [String: Any])?["transactionId"] as? String, "\(sale)")
        let declined = try bench.tapsim("pay", "--amount", "4251", "--reference", "INV-PORTAL-2")
        #expect((declined["transaction"] as? [String: Any])?["transactionStatus"] as? String == "DECLINED", "\(declined)")

        let row = "tr[data-transaction=\"\(id)\"]"
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/transactions.html"), .select("Region", "EU"), .read("\(row) td.status"),
            .select("Status", "DECLINED"), .click("Search"), .readAll("#transactions tbody td.status"),
            .select("Status", ""), .click("Search"), .read("\(row) td.amount"), .read("\(row) td.paid-with"), .read("\(row) td.reference"),
            .clickIn(row, name: "Details"), .inViewport("#detail"), .read("#detail-title"),
            .read("#detail-summary dd[data-field=status]"), .read("#detail-summary dd[data-field=amount]"),
            .read("#detail-summary dd[data-field=reference]"), .readAll("#detail-fields dt"), .clickLink("Receipt"),
        ])
        #expect(seen[0] as? String == "CLEARED", "\(seen)")
        #expect(seen[1] as? [String] == ["DECLINED"], "the filter keeps only the declined sale: \(seen[1])")
        #expect(seen[2] as? String == "€12.50", "the amount in its currency: \(seen)")
        #expect((seen[3] as? String)?.hasPrefix("VISA ") == true && seen[4] as? String == "INV-PORTAL-1", "\(seen)")
        #expect(seen[5] as? Bool == true, "the detail opens where the tester is looking: \(seen)")
        #expect(seen[6] as? String == "Sale · €12.50 · CLEARED", "\(seen)")
        #expect(seen[7] as? String == "CLEARED" && seen[8] as? String == "€12.50" && seen[9] as? String == "INV-PORTAL-1", "\(seen)")
        #expect((seen[10] as? [String])?.count == 37, "every field of the seed's TransactionDetail: \(seen[10])")

        // A link to the one transaction (the Webhooks page's) opens its detail.
        let linked = try BrowserPerson.run([
            .goto(bench.portal + "/transactions.html?region=EU&transaction=\(id)"), .read("#detail-title"),
            .waitText("#detail-timeline", contains: "Webhook payment.succeeded"), .readAll("#detail-timeline li"),
        ])
        #expect(linked.first as? String == "Sale · €12.50 · CLEARED", "\(linked)")
        let steps = linked.last as? [String] ?? []
        #expect(steps.first?.hasSuffix("Sale CLEARED") == true && steps.count == 2, "the sale, then its webhook: \(steps)")

        // The receipt and the export, as the page links them (through the portal).
        let portal = Service(name: "portal", baseURL: bench.portal)
        let detail = portal.call("GET", "/api/regions/EU/transactions/\(id)")
        let receipt = portal.call("GET", "/api/regions/EU/receipts/\(try #require(detail.string("receiptId")))")
        #expect(receipt.status == 200 && receipt.text.contains("12.50"), "\(receipt)")
        // The Webhooks page names the payment and its amount, in its currency.
        let merchant = try #require((detail["transaction"] as? [String: Any])?["merchantId"] as? String, "\(detail)")
        let webhooks = try BrowserPerson.run([
            .goto(bench.portal + "/webhooks.html?region=EU"), .select("Merchant", merchant),
            .waitText("#events tbody", contains: id), .readAll("#events tbody tr td.payment"), .readAll("#events tbody tr td.amount"),
        ])
        let payments = webhooks[0] as? [String] ?? [], amounts = webhooks[1] as? [String] ?? []
        #expect(payments.firstIndex(of: id).map { amounts[$0] } == "€12.50", "\(webhooks)")
        #expect(payments.count == 2 && amounts.contains("€42.51"), "the declined sale's event too: \(webhooks)")
        let csv = portal.call("GET", "/api/regions/EU/transactions.csv?status=CLEARED")
        #expect(csv.status == 200 && csv.header("Content-Type")?.hasPrefix("text/csv") == true, "\(csv)")
        let lines = csv.text.split(separator: "\r\n").map(String.init)
        #expect(lines.first?.hasPrefix("transactionId,transactionDate,merchantId,terminalId") == true)
        #expect(lines.count == 2 && lines[1].hasPrefix(id + ","), "\(lines)")

        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let statistics = try BrowserPerson.run([
            .goto(bench.portal + "/statistics.html"), .select("Region", "EU"),
            .read("#daily tbody tr td:nth-child(2)"), .read("#brand tbody tr td:nth-child(1)"), .readAll("#daily-chart svg rect"),
            .read("#daily tbody tr td:nth-child(3)"), .read("#daily-chart p"),
        ])
        #expect(statistics[0] as? String == "1", "one approved sale today (\(today)): \(statistics)")
        #expect(statistics[1] as? String == "VISA", "\(statistics)")
        #expect((statistics[2] as? [Any])?.count == 1, "one bar: \(statistics)")
        #expect(statistics[3] as? String == "€12.50", "the amount in the region's currency: \(statistics)")
        #expect((statistics[4] as? String)?.contains("approved amount in EUR") == true, "the chart says its units: \(statistics)")
    }

    @Test func theBackOfficeListRefusesBadFiltersAndPagesOnlyWhenThereIsMore() throws {
        let bench = try PortalBench()
        let portal = Service(name: "portal", baseURL: bench.portal)
        for (query, field) in [
            ("status=PAID", "query.status"), ("itemsPerPage=0", "query.itemsPerPage"), ("dateFrom=yesterday", "query.dateFrom"),
            ("terminalId=../x", "query.terminalId"),
        ] {
            let reply = portal.call("GET", "/api/regions/EU/transactions?\(query)")
            #expect(reply.status == 400 && reply.errorField == field, "\(query): \(reply)")
        }
        let empty = portal.call("GET", "/api/regions/EU/transactions")
        #expect(empty.status == 200 && empty.array("transactions")?.isEmpty == true && empty.bool("hasMore") == false, "\(empty)")
        #expect(portal.call("GET", "/api/regions/EU/transactions/nope").errorCode == "transaction_not_found")
        let stats = portal.call("GET", "/api/regions/EU/statistics?fromDate=2026-12-02T00:00:00Z&toDate=2026-12-01T00:00:00Z")
        #expect(stats.status == 400 && stats.errorField == "query.fromDate", "\(stats)")
    }
}
