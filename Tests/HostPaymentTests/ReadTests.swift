import Foundation
import HostTestSupport
import SandboxStore
import SandboxTestSupport
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
                expectTransaction(try await till.pay("visa", amount: 4251), 201, "DECLINED", "\(l) t3 visa 42.51").transactionId)
            let t4 = try await till.cleared("visa", amount: 3000, "t4 visa 30.00")
            let refundCard = try await till.tap("visa", amount: 1000)
            let t5 = try #require(
                expectTransaction(await till.refund(t1, amount: 1000, payload: refundCard), 201, "CLEARED", "\(l) t5 refund of t1")
                    .transactionId)
            let afterRefund = expectTransaction(await till.last(), 200, "CLEARED", "\(l) last transaction after the refund")
            #expect(afterRefund.transactionId == t5, "\(l) last must be the refund t5 \(t5): \(afterRefund)")
            try await till.advance(300, "five minutes later")
            let t6reply = expectTransaction(try await till.pay("mc", amount: 4000), 201, "CLEARED", "\(l) t6 mc 40.00")
            let t6 = try #require(t6reply.transactionId)
            let all = Set([t1, t2, t3, t4, t5, t6])
            let t6Date = try #require(parseTime(t6reply["transactionDate"]), "\(l) t6 transactionDate: \(t6reply)")
            let t1Date = try #require(parseTime(expectReply(await till.details(t1), 200, nil, "\(l) t1")["transactionDate"]))
            // UUIDv7: version 7, and the host clock's milliseconds at creation first, so ids sort in creation order.
            let stamps = [t1, t2, t3, t4, t5, t6].map { id in Int(id.replacingOccurrences(of: "-", with: "").prefix(12), radix: 16) ?? -1 }
            for id in [t1, t2, t3, t4, t5, t6] {
                #expect(id.count == 36 && Array(id)[14] == "7" && "89ab".contains(Array(id)[19]), "\(l) \(id) is not a UUIDv7")
            }
            #expect(stamps == stamps.sorted(), "\(l) ids out of creation order: \(stamps)")
            #expect(
                stamps[5] == Int((t6Date.timeIntervalSince1970 * 1000).rounded()),
                "\(l) t6 id \(t6) is not stamped with its transactionDate \(t6Date.timeIntervalSince1970)")

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

    @Test(
        "count, history total and statistics equal the history counted by hand: a mix over three days, ranges cutting hours and days in any offset, before and after sales become REFUNDED"
    )
    func totalsFollowHistory() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            var sales: [(id: String, amount: Int)] = []
            for round in 0..<8 {
                if round == 5 {
                    try await expectTotalsFollowHistory(till, "after five rounds, nothing refunded yet")
                    // CLEARED → REFUNDED (and a REFUND row) for sales whose hours and days are whole in most ranges.
                    let whole = "dateFrom=\(q(utc(Date(timeIntervalSince1970: 0))))"
                    let before = try await filteredCounts(till, whole)
                    for sale in sales.prefix(2) {
                        let card = try await till.tap("visa", amount: sale.amount)
                        expectTransaction(
                            await till.refund(sale.id, amount: sale.amount, payload: card), 201, "CLEARED", "\(l) refund \(sale.id)")
                    }
                    let after = try await filteredCounts(till, whole)
                    #expect(
                        after.refunded == before.refunded + 2 && after.clearedSales == before.clearedSales - 2
                            && after.refunds == before.refunds + 2 && after.all == before.all + 2,
                        "\(l) two refunds: REFUNDED +2, cleared sales −2, refunds +2, all +2; before \(before), after \(after)")
                }
                sales.append((try await sellMix(till, round: round), 1010 + 10 * round))
                try await till.advance(7 * 3600 + 660, "round \(round) done: seven hours later", relogin: true)
            }
            try await expectTotalsFollowHistory(till, "after eight rounds and two refunds")
        }
    }

    @Test("a reset forgets every transaction and its totals at once; totals follow the sales made after it")
    func resetForgetsTransactions() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let before = try await Till.open(host, try host.counter())
            _ = try await sellMix(before, round: 0)
            expectReply(await host.service.call("POST", "/_sandbox/reset"), 204, nil, "\(before.label) reset")
            let till = try await Till.open(host, try host.counter())
            let empty = expectReply(await till.history(), 200, nil, "\(till.label) history after the reset")
            #expect(empty.int("total") == 0, "\(till.label) transactions survived the reset: \(empty)")
            for round in 1...3 {
                _ = try await sellMix(till, round: round)
                try await till.advance(9 * 3600 + 120, "round \(round) done: nine hours later", relogin: true)
            }
            try await expectTotalsFollowHistory(till, "after a reset and new sales")
            // The table, dropped and created again by the reset, has its indexes and triggers back
            // (on PostgreSQL it is emptied, not dropped).
            guard !InProcessHost.onPostgres else { return }
            let db = try SandboxStore.Connection(path: sandbox.databasePath("EU"), access: .readOnly)
            let objects: [String] = try db.query(
                "SELECT type || ' ' || name AS object FROM sqlite_master WHERE tbl_name = 'transactions' AND type != 'table' ORDER BY 1"
            ).map { try $0["object"] }
            #expect(
                objects == [
                    "index sqlite_autoindex_transactions_1", "index transactions_by_original", "index transactions_by_reference",
                    "index transactions_by_terminal_time",
                    "index transactions_by_time", "index transactions_in_flight", "index transactions_latest_by_type", "trigger transactions_rollup_delete",
                    "trigger transactions_rollup_insert", "trigger transactions_rollup_update",
                ], "\(objects)")
        }
    }

    @Test(
        "a database of schema 5 with transactions, opened by this build, answers count, history totals and statistics as before",
        .enabled(if: !InProcessHost.onPostgres, "an old SQLite file"))
    func migratedDatabaseAnswersAlike() async throws {
        let directory = TemporaryDirectory()
        let (terminal, device, ranges, before, now, path, spentCard) = try await withSandbox(directory: directory) { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            for round in 0..<3 {
                _ = try await sellMix(till, round: round)
                try await till.advance(9 * 3600 + 120, "round \(round) done: nine hours later", relogin: true)
            }
            let ranges = try await checkedRanges(till)
            let spentCard = try await till.tap("visa", amount: 1000)
            expectTransaction(await till.sale(amount: 1000, payload: spentCard), 201, "CLEARED", "\(till.label) sale before the upgrade")
            let clock = expectReply(await host.service.call("GET", "/_sandbox/clock"), 200, nil, "\(till.label) sandbox clock")
            return (
                till.terminal, till.device, ranges, try await answers(till, ranges), try #require(clock.string("now"), "\(clock)"),
                sandbox.databasePath("EU"), spentCard
            )
        }

        try rewriteDatabase(path, asVersion: 5)
        let old = try schema(of: path)
        #expect(
            old.version == 5 && old.tables.contains("transactions") && !old.tables.contains("transaction_days"),
            "the rewritten file is not a schema-5 database: \(old)")

        try await withSandbox(directory: directory) { sandbox in
            let host = try sandbox.host("EU")
            // The clock goes on from where it was (the host keeps its offset), never back before `now`.
            let resumed = expectReply(await host.service.call("GET", "/_sandbox/clock"), 200, nil, "the clock after the restart")
            #expect((resumed.string("now") ?? "") >= now, "the restart moved the clock back from \(now): \(resumed)")
            let till = try await Till.resume(host, terminal, device)
            #expect(try schema(of: path).version > 5, "the host did not migrate the schema-5 database")
            let after = try await answers(till, ranges)
            #expect(after.count == before.count, "\(till.label) \(after.count) answers after migration, \(before.count) before")
            for (index, (old, new)) in zip(before, after).enumerated() where old != new {
                Issue.record("\(till.label) ?\(ranges[index].query): before migration \(old), after \(new)")
            }
            try await expectTotalsFollowHistory(till, "after migrating the schema-5 database")
            // A card read spent before the upgrade stays spent.
            expectReply(
                await till.sale(amount: 1000, payload: spentCard), 409, "card_payload_replayed", "\(till.label) replay after the upgrade")
        }
    }

    // MARK: - A mix of transactions, and their totals counted from the history

    /// One round of a terminal's day: a cleared sale (returned), a decline, a DCC sale accepted or
    /// not, a reversed sale every third round, a cancelled card read, and a sale left waiting (NEW,
    /// or PIN_REQUESTED) that times out once the clock moves on. A few minutes pass between them.
    func sellMix(_ till: Till, round: Int) async throws -> String {
        let l = till.label
        let cards = ["visa", "mc", "maestro", "amex"]
        let sale = try await till.cleared(cards[round % cards.count], amount: 1010 + 10 * round, "round \(round) sale")
        try await till.advance(250, "round \(round) four minutes later", relogin: true)
        expectTransaction(try await till.pay("mc", amount: 4251), 201, "DECLINED", "\(l) round \(round) decline (42.51)")
        let offered = expectTransaction(
            try await till.pay("visa-us-dcc", amount: 2010 + 10 * round), 201, "DCC_REQUIRED", "\(l) round \(round) DCC offer")
        expectTransaction(
            await till.dcc(try #require(offered.transactionId), accepted: round % 2 == 0), 200, "CLEARED", "\(l) round \(round) DCC choice")
        try await till.advance(250, "round \(round) four minutes later", relogin: true)
        if round % 3 == 0 {
            let reversed = try await till.cleared("amex", amount: 3010 + 10 * round, "round \(round) sale to reverse")
            expectTransaction(await till.reversal(reversed), 200, "CANCELLED", "\(l) round \(round) reversal")
        }
        expectTransaction(await till.sale(amount: 510, outcome: "cancelled"), 201, "USER_CANCELLED", "\(l) round \(round) cancelled read")
        if round % 2 == 0 {
            expectTransaction(await till.sale(amount: 710), 201, "NEW", "\(l) round \(round) sale waiting for a card")
        } else {
            expectTransaction(try await till.pay("visa", amount: 4265), 201, "PIN_REQUESTED", "\(l) round \(round) sale waiting for a PIN")
        }
        return sale
    }

    /// A transaction as the history lists it, at the whole second of its `transactionDate`.
    struct Listed {
        var second: Int64
        var status: String
        var type: String
        var method: String
        var amount: Int
        var brand: String

        var isApprovedSale: Bool { type == "AUTH" && (status == "CLEARED" || status == "REFUNDED") }
    }

    /// Every transaction of the terminal, from the history's pages.
    func listed(_ till: Till, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Listed] {
        var items: [[String: Any]] = []
        for page in 1... {
            let reply = expectReply(
                await till.history("page=\(page)&itemsPerPage=200"), 200, nil, "\(till.label) history page \(page)",
                sourceLocation: sourceLocation)
            let batch = reply.array("items") as? [[String: Any]] ?? []
            items += batch
            if batch.count < 200 { break }
        }
        return try items.map { item in
            let date = try #require(parseTime(item["transactionDate"]), "\(till.label) history item: \(item)", sourceLocation: sourceLocation)
            return Listed(
                second: Int64(date.timeIntervalSince1970.rounded(.down)), status: item["transactionStatus"] as? String ?? "?",
                type: item["transactionType"] as? String ?? "?", method: item["paymentMethod"] as? String ?? "?",
                amount: (item["amount"] as? NSNumber)?.intValue ?? 0, brand: item["cardType"] as? String ?? "UNKNOWN")
        }
    }

    /// History filters, each with what it keeps.
    static let filters: [(query: String, keeps: @Sendable (Listed) -> Bool)] = [
        ("", { _ in true }),
        ("status=&type=", { _ in true }),
        ("status=CLEARED", { $0.status == "CLEARED" }),
        ("status=REFUNDED", { $0.status == "REFUNDED" }),
        ("type=AUTH&status=CLEARED,REFUNDED", { $0.isApprovedSale }),
        ("type=REFUND", { $0.type == "REFUND" }),
        ("status=DECLINED,CANCELLED,USER_CANCELLED,TIMEOUT", { ["DECLINED", "CANCELLED", "USER_CANCELLED", "TIMEOUT"].contains($0.status) }),
        ("paymentMethod=CARD&type=AUTH", { $0.method == "CARD" && $0.type == "AUTH" }),
    ]

    /// A range `[from, to)` of whole seconds and the filter it is checked with.
    struct CheckedRange {
        var from: Int64
        var to: Int64
        var filter: Int
        /// Hours east of UTC the dates are written in.
        var offset: Int

        /// The two date parameters `names` in the range's offset; `to` is left out by asking up to
        /// the millisecond before it.
        func dates(_ names: (String, String)) -> String {
            "\(names.0)=\(q(Self.written(from * 1000, offset)))&\(names.1)=\(q(Self.written(to * 1000 - 1, offset)))"
        }

        var query: String { dates(("dateFrom", "dateTo")) + "&" + ReadTests.filters[filter].query }

        static func written(_ milliseconds: Int64, _ offset: Int) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: offset * 3600)
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"
            return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        }
    }

    /// Ranges whose ends fall between the transactions (between rounds, between the minutes of a
    /// round, at and around UTC midnights and hours), never in a second that holds one, so the whole
    /// seconds of the history tell exactly what each range holds.
    func checkedRanges(_ till: Till) async throws -> [CheckedRange] {
        let seconds = Set(try await listed(till).map(\.second))
        let sorted = seconds.sorted()
        guard let first = sorted.first, let last = sorted.last else { return [] }
        var cuts: Set<Int64> = [first - 30 * 3600, last + 30 * 3600]
        for (a, b) in zip(sorted, sorted.dropFirst()) where b - a >= 4 { cuts.insert((a + b) / 2) }
        var midnight = first / 86400 * 86400
        while midnight <= last + 86400 {
            cuts.formUnion([midnight, midnight + 1800, midnight - 5400])
            midnight += 86400
        }
        for second in sorted { cuts.formUnion([second / 3600 * 3600, second / 3600 * 3600 + 3600]) }
        let quiet = cuts.filter { !seconds.contains($0) && !seconds.contains($0 - 1) }.sorted()
        var ranges: [CheckedRange] = []
        for (index, from) in quiet.enumerated() {
            for step in [1, 4, 13] where index + step < quiet.count {
                ranges.append(
                    CheckedRange(
                        from: from, to: quiet[index + step], filter: ranges.count % Self.filters.count,
                        offset: [2, -5, 0, 9][ranges.count % 4]))
            }
        }
        ranges.append(CheckedRange(from: quiet.first!, to: quiet.last!, filter: 0, offset: 2))
        return ranges
    }

    /// What the host answers for a range: count, history total, daily and per-brand statistics.
    struct Answer: Equatable {
        var count: Int?
        var total: Int?
        var daily: [Group]
        var brand: [Group]
    }

    /// One group of a statistics answer.
    struct Group: Equatable, CustomStringConvertible {
        var name: String
        var amount: Int
        var count: Int
        var description: String { "\(name) \(amount)/\(count)" }
    }

    func answers(_ till: Till, _ ranges: [CheckedRange], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Answer] {
        var answers: [Answer] = []
        for range in ranges {
            let l = "\(till.label) ?\(range.query)"
            let count = expectReply(await till.countReply(range.query), 200, nil, "\(l) count", sourceLocation: sourceLocation)
            let history = expectReply(
                await till.history(range.query + "&itemsPerPage=1"), 200, nil, "\(l) history", sourceLocation: sourceLocation)
            func groups(_ type: String) async -> [Group] {
                let reply = expectReply(
                    await till.statistics(range.dates(("fromDate", "toDate")) + "&statisticsType=\(type)"), 200, nil,
                    "\(l) \(type) statistics", sourceLocation: sourceLocation)
                return (reply.array("statistics") as? [[String: Any]] ?? []).map { group in
                    let items = group["items"] as? [[String: Any]] ?? []
                    return Group(
                        name: group["description"] as? String ?? "?",
                        amount: items.reduce(0) { $0 + (($1["amount"] as? NSNumber)?.intValue ?? 0) },
                        count: items.reduce(0) { $0 + (($1["count"] as? NSNumber)?.intValue ?? 0) })
                }
            }
            answers.append(
                Answer(count: count.int("count"), total: history.int("total"), daily: await groups("daily"), brand: await groups("brand")))
        }
        return answers
    }

    /// Checks every range of ``checkedRanges(_:)`` against a count of the whole history.
    func expectTotalsFollowHistory(_ till: Till, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let all = try await listed(till, sourceLocation: sourceLocation)
        let ranges = try await checkedRanges(till)
        // How many ranges there are depends on how the sales fell into real seconds (fewer quiet
        // seconds on a loaded machine): this only makes sure the check below compares a good many.
        #expect(ranges.count > 30, "\(till.label) \(step): only \(ranges.count) ranges to check", sourceLocation: sourceLocation)
        let answers = try await answers(till, ranges, sourceLocation: sourceLocation)
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = TimeZone(identifier: "UTC")
        day.dateFormat = "yyyy-MM-dd"
        var failures = 0
        for (range, answer) in zip(ranges, answers) {
            let inside = all.filter { $0.second >= range.from && $0.second < range.to }
            let matching = inside.filter(Self.filters[range.filter].keeps).count
            let approved = inside.filter(\.isApprovedSale)
            func groups(_ key: (Listed) -> String) -> [Group] {
                Dictionary(grouping: approved, by: key).map { name, sales in
                    Group(name: name, amount: sales.reduce(0) { $0 + $1.amount }, count: sales.count)
                }.sorted { $0.name < $1.name }
            }
            let expected = Answer(
                count: matching, total: matching,
                daily: groups { day.string(from: Date(timeIntervalSince1970: Double($0.second))) }, brand: groups(\.brand))
            if answer != expected {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "\(till.label) \(step) ?\(range.query): expected \(expected), got \(answer)", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(
            failures == 0, "\(till.label) \(step): \(failures) of \(ranges.count) ranges differ from the history",
            sourceLocation: sourceLocation)
    }

    /// The counts of a few filters over `dates`.
    func filteredCounts(_ till: Till, _ dates: String) async throws -> (all: Int, refunded: Int, clearedSales: Int, refunds: Int) {
        func count(_ filter: String) async -> Int {
            expectReply(await till.countReply(dates + "&" + filter), 200, nil, "\(till.label) count ?\(filter)").int("count") ?? -1
        }
        return (await count(""), await count("status=REFUNDED"), await count("type=AUTH&status=CLEARED"), await count("type=REFUND"))
    }

    /// Description → summed amount and count of a statistics answer.
    func totals(_ reply: HTTPReply) -> [String: (amount: Int, count: Int)] {
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
