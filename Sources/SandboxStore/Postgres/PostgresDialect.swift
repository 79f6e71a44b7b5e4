import Foundation

/// The one place where the SQL the repositories write (SQLite's dialect, the embedded default)
/// becomes PostgreSQL's: placeholders, `INSERT OR IGNORE` and `INDEXED BY`. Everything else the
/// repositories write is SQL both engines read alike; migrations are written per dialect.
///
/// ```swift
/// PostgresDialect.translate("INSERT OR IGNORE INTO t(a, b) VALUES (?, ?)")
/// // INSERT INTO t(a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING
/// ```
///
/// Tables that the repositories order by `rowid` have a `rowid` column of their own in the
/// PostgreSQL schema, so `ORDER BY rowid` needs no translation.
public enum PostgresDialect {
    /// `sql` in PostgreSQL's dialect.
    ///
    /// - `?` becomes `$n` (SQLite's rule: one more than the highest number so far) and `?N` `$N`,
    ///   outside string literals, quoted identifiers and comments;
    /// - `INSERT OR IGNORE INTO` becomes `INSERT INTO … ON CONFLICT DO NOTHING`;
    /// - `INDEXED BY name` (a hint to SQLite's planner) is dropped.
    public static func translate(_ sql: String) -> String {
        var text = placeholders(sql)
        if let range = text.range(of: "INSERT OR IGNORE INTO", options: .caseInsensitive) {
            text.replaceSubrange(range, with: "INSERT INTO")
            text = text.trimmingTrailingSpaceAndSemicolons() + " ON CONFLICT DO NOTHING"
        }
        while let range = text.range(of: #"\s+INDEXED BY\s+[A-Za-z_][A-Za-z0-9_]*"#, options: [.regularExpression, .caseInsensitive]) {
            text.replaceSubrange(range, with: "")
        }
        return text
    }

    /// `?` and `?N` as `$n`, skipping literals, quoted names and comments.
    static func placeholders(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 16)
        var highest = 0
        var scalars = Array(sql.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            switch c {
            case "'", "\"":
                // A literal or a quoted name, up to its closing quote ('' inside is one quote).
                out.unicodeScalars.append(c)
                while let d = scalars.popFirst() {
                    out.unicodeScalars.append(d)
                    if d == c {
                        if scalars.first == c { out.unicodeScalars.append(scalars.removeFirst()) } else { break }
                    }
                }
            case "-" where scalars.first == "-":
                out.unicodeScalars.append(c)
                while let d = scalars.popFirst() {
                    out.unicodeScalars.append(d)
                    if d == "\n" { break }
                }
            case "?":
                var digits = ""
                while let d = scalars.first, ("0"..."9").contains(d) { digits.unicodeScalars.append(scalars.removeFirst()) }
                let number = Int(digits) ?? highest + 1
                highest = max(highest, number)
                out += "$\(number)"
            default:
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension String {
    fileprivate func trimmingTrailingSpaceAndSemicolons() -> String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace || last == ";" { text.removeLast() }
        return String(text)
    }
}
