import SandboxStore

/// A date range cut into the parts count and statistics read: the whole UTC days and hours from
/// the rollups (`transaction_days`, `transaction_hours`: migration 6, kept by triggers on every
/// write of `transactions`), and the part of an hour at either end from the rows themselves.
///
/// Ninety days over a million rows is then about 3,000 day totals, at most 46 hours of totals and
/// two partial hours of rows, instead of every row (bench/history.sh). The parts, in SQL order:
///
/// ```
/// from ─ rows ─┤ hours ─┤ days … days ├─ hours ├─ rows ─ to
/// ```
///
/// Each is a half-open range in its table's unit (milliseconds, hour or day number since 1970);
/// an empty part is `0..<0`, so the SQL text stays the same for every range.
package struct Rollup: Sendable {
    /// Where a part is read.
    package enum Source: Sendable {
        case rows, hours, days

        package var table: String {
            switch self {
            case .rows: "transactions"
            case .hours: "transaction_hours"
            case .days: "transaction_days"
            }
        }

        package var column: String {
            switch self {
            case .rows: "created_at"
            case .hours: "hour"
            case .days: "day"
            }
        }
    }

    package static let hour: Int64 = 3_600_000
    package static let day: Int64 = 86_400_000
    /// 9999-12-31T23:59:59.999Z, the latest instant a range reaches (an open `dateTo` is `Int64.max`).
    package static let latest: Int64 = 253_402_300_799_999
    package static let sources: [Source] = [.rows, .hours, .days, .hours, .rows]

    /// The parts of ``sources``, in that order.
    package let parts: [Range<Int64>]

    /// The parts of `[from, to]` (milliseconds, both included).
    ///
    /// Times before 1970 are cut off: the clock never gives one, and the day and hour numbers of
    /// the rollups round toward zero.
    package init(from: Int64, to: Int64) {
        let start = max(from, 0)
        let end = min(to, Self.latest) + 1
        let empty: Range<Int64> = 0..<0
        guard start < end else {
            parts = Array(repeating: empty, count: 5)
            return
        }
        // Whole hours [firstHour, endHour), whole days [firstDay, endDay) within them.
        let firstHour = (start + Self.hour - 1) / Self.hour
        let endHour = end / Self.hour
        guard firstHour < endHour else {
            parts = [start..<end, empty, empty, empty, empty]
            return
        }
        let firstDay = (firstHour + 23) / 24
        let endDay = endHour / 24
        let rows = (start..<firstHour * Self.hour, endHour * Self.hour..<end)
        parts =
            firstDay < endDay
            ? [rows.0, firstHour..<firstDay * 24, firstDay..<endDay, endDay * 24..<endHour, rows.1]
            : [rows.0, firstHour..<endHour, empty, empty, rows.1]
    }

    /// One `SELECT` per part joined by `UNION ALL`: `select(source)` gives its columns, every part
    /// is of one terminal within its range, and `filters` (` AND …`) applies to each.
    package static func union(where filters: String, _ select: (Source) -> String) -> String {
        sources.map { source in
            select(source) + " FROM \(source.table) WHERE terminal_id = ? AND \(source.column) >= ? AND \(source.column) < ?" + filters
        }.joined(separator: " UNION ALL ")
    }

    /// The values of ``union(where:_:)``: for each part the terminal, its range, then `filters`' values.
    package func values(terminal: String, filters: [DatabaseValue] = []) -> [DatabaseValue] {
        parts.flatMap { part in [.text(terminal), .integer(part.lowerBound), .integer(part.upperBound)] + filters }
    }
}
