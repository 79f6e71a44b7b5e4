import Foundation

/// Copies of a PostgreSQL store are SQLite files too: every table of the store's schema, row for
/// row, under the same names (the schema's version is its `sandbox_schema` table, copied with the
/// rest). A snapshot saved by one replica is restored by any other, and a snapshot shelf holds
/// the same kind of file whatever the engine.
extension Connection {
    /// The store's tables (`sandbox_schema` among them) and their columns, in table order.
    private func postgresTables() throws -> [(name: String, columns: [String])] {
        let rows = try query(
            """
            SELECT c.table_name, c.column_name FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            ORDER BY c.table_name, c.ordinal_position
            """)
        var tables: [(name: String, columns: [String])] = []
        for row in rows {
            let table: String = try row["table_name"], column: String = try row["column_name"]
            if tables.last?.name == table { tables[tables.count - 1].columns.append(column) } else { tables.append((table, [column])) }
        }
        return tables
    }

    /// Writes every table, as the read transaction under way sees it, into a new SQLite file.
    func postgresBackup(to path: String) throws {
        let destination = try Connection(path: path, access: .readWrite)
        try destination.execute("BEGIN")
        for (table, columns) in try postgresTables() {
            let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            try destination.execute("CREATE TABLE \"\(table)\" (\(names))")
            let insert = "INSERT INTO \"\(table)\" (\(names)) VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            for row in try query("SELECT \(names) FROM \(table)") { try destination.run(insert, row.values) }
        }
        try destination.execute("COMMIT")
    }

    /// Replaces every table's rows with the copy's, inside the write transaction under way: the
    /// copy's rows as they are (triggers off, so the totals are the copy's), its sequences moved
    /// past its keys.
    ///
    /// - Throws: ``DatabaseError/schemaMismatch`` when the copy's tables or columns are not this
    ///   store's, or its schema version differs (nothing changes).
    func postgresRestore(from path: String) throws {
        let source = try Connection(path: path, access: .readOnly)
        let mine = try postgresTables()
        var theirs: [String: [String]] = [:]
        for row in try source.query("SELECT name FROM sqlite_master WHERE type = 'table'") {
            let table: String = try row["name"]
            theirs[table] = try source.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map { try $0["name"] }
        }
        let differing = Set(mine.map(\.name)).symmetricDifference(theirs.keys)
            .union(mine.filter { theirs[$0.name] != nil && theirs[$0.name] != $0.columns }.map(\.name))
        guard differing.isEmpty else {
            throw DatabaseError.schemaMismatch.with(message: "\(path) is not a copy of this schema (differs in \(differing.sorted().joined(separator: ", ")))")
        }
        let version: Int64? = try query("SELECT version FROM sandbox_schema").first?["version"]
        let theirVersion: Int64? = try source.query("SELECT version FROM sandbox_schema").first?["version"]
        guard version == theirVersion else {
            throw DatabaseError.schemaMismatch.with(message: "\(path) has schema version \(theirVersion ?? 0), this database \(version ?? 0)")
        }
        // Parents before children, so that every foreign key finds its row.
        let references = try query(
            """
            SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint
            WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
            """
        ).map { (child: try $0["child"] as String, parent: try $0["parent"] as String) }
        let unqualified = { (name: String) in String(name.split(separator: ".").last ?? "").replacingOccurrences(of: "\"", with: "") }
        let edges = references.map { (child: unqualified($0.child), parent: unqualified($0.parent)) }.filter { $0.child != $0.parent }
        let names = Set(mine.map(\.name))
        var ordered: [(name: String, columns: [String])] = []
        var placed: Set<String> = []
        var left = mine
        while !left.isEmpty {
            let ready = left.filter { table in
                edges.filter { $0.child == table.name }.allSatisfy { placed.contains($0.parent) || !names.contains($0.parent) }
            }
            let next = ready.isEmpty ? [left[0]] : ready  // a cycle: the keys will say so
            ordered += next
            placed.formUnion(next.map(\.name))
            left.removeAll { placed.contains($0.name) }
        }
        try execute("TRUNCATE " + mine.map { "\"\($0.name)\"" }.joined(separator: ", "))
        for (table, columns) in ordered {
            let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            try execute("ALTER TABLE \"\(table)\" DISABLE TRIGGER USER")
            let insert = "INSERT INTO \"\(table)\" (\(names)) VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            for row in try source.query("SELECT \(names) FROM \"\(table)\"") { try run(insert, row.values) }
            try execute("ALTER TABLE \"\(table)\" ENABLE TRIGGER USER")
            for column in columns {
                let sequence: String? = try query("SELECT pg_get_serial_sequence(?, ?) AS s", [.text(table), .text(column)]).first?["s"]
                guard let sequence else { continue }
                try run("SELECT setval(?::regclass, COALESCE((SELECT MAX(\"\(column)\") FROM \"\(table)\"), 0) + 1, false)", [.text(sequence)])
            }
        }
    }
}
