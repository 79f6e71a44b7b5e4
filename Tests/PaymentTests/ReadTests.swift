import Foundation
import Testing

/// Last transaction, history (paging, dates with an offset, filters), count, details and statistics.
@Suite("Card payments: reads")
struct ReadTests {
    @Test("last, history paging, dateFrom/dateTo with +02:00, status/type/paymentMethod filters, count = total, details by id and reference, statistics")
    func reads() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            expectReply(await till.last(), 404, "transaction_not_found", "\(l) last transaction before any")
            let empty = expectReply(await till.history(), 200, nil, "\(l) history before any")
            #expect(empty.int("total") == 0 && (empty.array("items") ?? [1]).isEmpty, "\(l) empty history: \(empty)")

            let t1 = try await till.cleared("visa", amount: 1000, "t1 visa 10.00")
            let t2 = try await till.cleared("mc", amount: 2000, "t2 mc 20.00")
            let t3 = try #require(
                expectTransaction(try await till.pay("visa", amount: 1051), 201, "DECLINED", "\(l) t3 visa 10.51").transactionId)
            let t4 = try await till.cleared("visa", amount: 3000, "t4 visa 30.00")
            let refundCard = try await till.tap("visa", amount: 1000)
            let t5 = try #require(
                expectTransaction(await till.refund(t1, amount: 1000, payload: refundCard), 201, "CLEARED", "\(l) t5 refund of t1")
                    .transactionId)
            try await till.advance(300, "five minutes later")
            let t6reply = expectTransaction(try await till.pay("mc", amount: 4000), 201, "CLEARED", "\(l) t6 mc 40.00")
            let t6 = try #require(t6reply.transactionId)
            let all = Set([t1, t2, t3, t4, t5, t6])
            let t6Date = try #require(parseTime(t6reply["transactionDate"]), "\(l) t6 transactionDate: \(t6reply)")
            let t1Date = try #require(parseTime(expectReply(await till.details(t1), 200, nil, "\(l) t1")["transactionDate"]))

            let last = expectTransaction(await till.last(), 200, "CLEARED", "\(l) last transaction")
            #expect(last.transactionId == t6, "\(l) last must be t6 \(t6): \(last)")

            // Paging.
            var seen: [String] = []
            for (page, size) in [(1, 4), (2, 4), (3, 4)] {
                let reply = expectReply(await till.history("page=\(page)&itemsPerPage=\(size)"), 200, nil, "\(l) history page \(page)")
                let items = reply.array("items") as? [[String: Any]] ?? []
                #expect(reply.int("total") == 6, "\(l) history total on page \(page): \(reply)")
                #expect(reply.int("page") == page && reply.int("itemsPerPage") == size, "\(l) page echo: \(reply)")
                #expect(items.count == [4, 2, 0][page - 1], "\(l) page \(page) of 4 holds \(items.count) items: \(reply)")
                seen += items.compactMap { $0["transactionId"] as? String }
            }
            #expect(seen.count == 6 && Set(seen) == all, "\(l) the pages together must list every transaction once: \(seen)")
            expectReply(await till.history("itemsPerPage=0"), 400, "invalid_request", "\(l) itemsPerPage 0")
            expectReply(await till.history("page=0"), 400, "invalid_request", "\(l) page 0")
            let refundedRow = (expectReply(await till.history(), 200, nil, "\(l) history").array("items") as? [[String: Any]] ?? [])
                .first { $0["transactionId"] as? String == t1 }
            #expect(refundedRow?["transactionStatus"] as? String == "REFUNDED", "\(l) t1 row: \(String(describing: refundedRow))")
            #expect((refundedRow?["amountRefund"] as? NSNumber)?.intValue == 1000, "\(l) t1 row amountRefund: \(String(describing: refundedRow))")

            // Filters; count must equal the history total for each.
            let filters: [(String, Set<String>)] = [
                ("", all),
                ("status=", all),
                ("status=CLEARED", [t2, t4, t5, t6]),
                ("status=REFUNDED", [t1]),
                ("status=DECLINED", [t3]),
                ("status=CLEARED,DECLINED", [t2, t3, t4, t5, t6]),
                ("status=AUTHORIZED", []),
                ("type=REFUND", [t5]),
                ("type=AUTH", [t1, t2, t3, t4, t6]),
                ("paymentMethod=CARD", all),
                ("type=AUTH&status=CLEARED", [t2, t4, t6]),
                ("dateFrom=\(q(plusTwo(t6Date.addingTimeInterval(-1))))", [t6]),
                ("dateTo=\(q(plusTwo(t6Date.addingTimeInterval(-60), fractions: false)))", [t1, t2, t3, t4, t5]),
                (
                    "dateFrom=\(q(plusTwo(t1Date.addingTimeInterval(-1), fractions: false)))&dateTo=\(q(plusTwo(t6Date.addingTimeInterval(1))))",
                    all
                ),
                ("dateFrom=\(q(plusTwo(t6Date.addingTimeInterval(60))))", []),
            ]
            for (query, expected) in filters {
                let history = expectReply(await till.history(query + (query.isEmpty ? "" : "&") + "itemsPerPage=50"), 200, nil, "\(l) history ?\(query)")
                let ids = Set((history.array("items") as? [[String: Any]] ?? []).compactMap { $0["transactionId"] as? String })
                #expect(ids == expected, "\(l) history ?\(query): expected \(expected.count) transactions, got \(ids.count): \(history)")
                #expect(history.int("total") == expected.count, "\(l) history ?\(query) total: \(history)")
                let count = expectReply(await till.countReply(query), 200, nil, "\(l) count ?\(query)")
                #expect(
                    count.int("count") == history.int("total"),
                    "\(l) count ?\(query) \(count.int("count") ?? -1) ≠ history total \(history.int("total") ?? -1)")
            }
            expectReply(await till.history("status=BOGUS"), 400, "invalid_request", "\(l) status BOGUS")
            expectReply(await till.history("dateFrom=yesterday"), 400, "invalid_request", "\(l) dateFrom yesterday")

            // Statistics: approved sales only (t1 was approved, then refunded; t3 declined; t5 is a refund).
            let from = q(utc(t1Date.addingTimeInterval(-3600)))
            let to = q(utc(t6Date.addingTimeInterval(3600)))
            let daily = expectReply(
                await till.statistics("fromDate=\(from)&toDate=\(to)&statisticsType=daily"), 200, nil, "\(l) daily statistics")
            let dailyTotals = totals(daily)
            #expect(
                dailyTotals.values.reduce(0) { $0 + $1.amount } == 10000 && dailyTotals.values.reduce(0) { $0 + $1.count } == 4,
                "\(l) daily statistics must sum the four approved sales (100.00 in 4): \(daily)")
            let brand = expectReply(
                await till.statistics("fromDate=\(from)&toDate=\(to)&statisticsType=brand"), 200, nil, "\(l) brand statistics")
            let byBrand = totals(brand)
            #expect(byBrand["VISA"]?.amount == 4000 && byBrand["VISA"]?.count == 2, "\(l) VISA: t1 + t4: \(brand)")
            #expect(byBrand["MASTERCARD"]?.amount == 6000 && byBrand["MASTERCARD"]?.count == 2, "\(l) MASTERCARD: t2 + t6: \(brand)")
            #expect(Set(byBrand.keys) == ["VISA", "MASTERCARD"], "\(l) only approved brands: \(brand)")
            let narrow = expectReply(
                await till.statistics("fromDate=\(q(plusTwo(t6Date.addingTimeInterval(-1))))&toDate=\(to)&statisticsType=brand"),
                200, nil, "\(l) brand statistics from t6 on (+02:00)")
            #expect(totals(narrow)["MASTERCARD"]?.amount == 4000 && totals(narrow).count == 1, "\(l) only t6: \(narrow)")
            expectReply(await till.statistics("toDate=\(to)"), 400, "invalid_request", "\(l) statistics without fromDate")
            expectReply(
                await till.statistics("fromDate=\(from)&toDate=\(to)&statisticsType=weekly"), 400, "invalid_request",
                "\(l) statisticsType weekly")

            // Details by id and by reference.
            let byID = expectTransaction(await till.details(t4), 200, "CLEARED", "\(l) details of t4")
            #expect(byID.transactionId == t4 && byID.int("transactionAmount") == 3000, "\(l) details of t4: \(byID)")
            let path = expectTransaction(
                await till.service.call("GET", "/terminal/v1/transactions/\(t4)", bearer: till.token), 200, "CLEARED",
                "\(l) GET /transactions/{t4}")
            #expect(path.transactionId == t4, "\(l) GET /transactions/{id}: \(path)")
            let own = expectTransaction(
                await till.details(query: "transactionId=\(t4)&terminalId=\(till.id)"), 200, "CLEARED", "\(l) details naming its own terminal")
            #expect(own.transactionId == t4, "\(l) \(own)")
            let tagged = try await till.cleared(amount: 1100, reference: "ORDER-7", "sale with reference ORDER-7")
            _ = try await till.cleared(amount: 1200, reference: "DUP-1", "first sale with reference DUP-1")
            _ = try await till.cleared(amount: 1300, reference: "DUP-1", "second sale with reference DUP-1")
            let byReference = expectTransaction(await till.details(query: "reference=ORDER-7"), 200, "CLEARED", "\(l) details by reference")
            #expect(byReference.transactionId == tagged, "\(l) details by reference ORDER-7: \(byReference)")
            #expect(byReference.string("externalID") == "ORDER-7", "\(l) externalID: \(byReference)")
            expectReply(await till.details(query: "reference=DUP-1"), 409, "reference_not_unique", "\(l) details by a shared reference")
            expectReply(await till.details(query: "reference=NOPE"), 404, "transaction_not_found", "\(l) details by an unknown reference")
            expectReply(await till.details(query: ""), 400, "invalid_request", "\(l) details without id or reference")
        }
    }

    /// Description → summed amount and count of a statistics answer.
    func totals(_ reply: Reply) -> [String: (amount: Int, count: Int)] {
        var result: [String: (amount: Int, count: Int)] = [:]
        for group in reply.array("statistics") as? [[String: Any]] ?? [] {
            let name = group["description"] as? String ?? "?"
            for item in group["items"] as? [[String: Any]] ?? [] {
                let amount = (item["amount"] as? NSNumber)?.intValue ?? 0
                let count = (item["count"] as? NSNumber)?.intValue ?? 0
                result[name, default: (0, 0)].amount += amount
                result[name, default: (0, 0)].count += count
            }
        }
        return result
    }
}
