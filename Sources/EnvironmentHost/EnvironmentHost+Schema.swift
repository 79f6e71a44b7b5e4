import SandboxStore

extension EnvironmentHost {
    /// The host database's migrations, in order; later issues append, never edit.
    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "host identity",
            sql: """
                CREATE TABLE host_identity (
                    key   TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                ) STRICT;
                """)
    ]

    /// Records which region owns a new database, and refuses a database of another region.
    static func claim(_ store: Store, for region: String) throws {
        let owner: String? = try store.write { db in
            if let existing = try db.query("SELECT value FROM host_identity WHERE key = 'region'").first {
                return try existing["value"] as String?
            }
            try db.run("INSERT INTO host_identity (key, value) VALUES ('region', ?)", [.text(region)])
            return region
        }
        guard owner == region else {
            throw HostError.databaseOfAnotherRegion(expected: region, found: owner ?? "(unknown)")
        }
    }
}

/// Why a host cannot start.
public struct HostError: Error, Equatable, CustomStringConvertible {
    public let description: String

    static func databaseOfAnotherRegion(expected: String, found: String) -> HostError {
        HostError(description: "the database belongs to region \(found), not \(expected); use another --data-dir")
    }
}
