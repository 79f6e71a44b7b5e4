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
                """),
        Migration(
            version: 2, name: "terminal lifecycle",
            sql: """
                CREATE TABLE merchants (
                    id       TEXT PRIMARY KEY,
                    api_key  TEXT NOT NULL UNIQUE,
                    document TEXT NOT NULL              -- the fixture, JSON
                ) STRICT;
                CREATE TABLE terminals (
                    id          TEXT PRIMARY KEY,
                    merchant_id TEXT NOT NULL REFERENCES merchants(id),
                    position    INTEGER NOT NULL,       -- fixture order: "next free terminal" follows it
                    profile     TEXT NOT NULL           -- the fixture, JSON
                ) STRICT;
                CREATE TABLE devices (
                    id                  TEXT PRIMARY KEY,   -- the installation id the device sends
                    model               TEXT NOT NULL,
                    terminal_id         TEXT REFERENCES terminals(id),
                    state               TEXT NOT NULL CHECK (state IN ('registered', 'unregistered')),
                    secret_hash         TEXT NOT NULL,
                    pin_salt            TEXT,
                    pin_hash            TEXT,
                    failed_attempts     INTEGER NOT NULL DEFAULT 0,
                    locked              INTEGER NOT NULL DEFAULT 0,
                    registered_at       INTEGER NOT NULL,
                    last_login_at       INTEGER,
                    relinked_at         INTEGER,
                    unregistered_reason TEXT
                ) STRICT;
                -- A terminal has at most one registered device.
                CREATE UNIQUE INDEX devices_one_per_terminal ON devices(terminal_id) WHERE state = 'registered';
                CREATE TABLE challenges (
                    code                  TEXT PRIMARY KEY,
                    device_id             TEXT NOT NULL,
                    device_model          TEXT NOT NULL,
                    created_at            INTEGER NOT NULL,
                    expires_at            INTEGER NOT NULL,
                    terminal_id           TEXT REFERENCES terminals(id),
                    backoffice_code       TEXT UNIQUE,
                    backoffice_expires_at INTEGER,
                    completed_at          INTEGER
                ) STRICT;
                CREATE TABLE registration_tokens (
                    token        TEXT PRIMARY KEY,
                    terminal_id  TEXT NOT NULL REFERENCES terminals(id),
                    created_at   INTEGER NOT NULL,
                    expires_at   INTEGER NOT NULL,
                    state        TEXT NOT NULL CHECK (state IN ('issued', 'verified', 'begun', 'used')),
                    device_id    TEXT,
                    device_model TEXT,
                    email        TEXT
                ) STRICT;
                CREATE TABLE sessions (
                    token_hash  TEXT PRIMARY KEY,       -- SHA-256 of the bearer token: the token itself is never stored
                    device_id   TEXT NOT NULL REFERENCES devices(id),
                    terminal_id TEXT NOT NULL REFERENCES terminals(id),
                    created_at  INTEGER NOT NULL,
                    expires_at  INTEGER NOT NULL,
                    ended_at    INTEGER
                ) STRICT;
                CREATE INDEX sessions_by_device ON sessions(device_id);
                CREATE TABLE support_numbers (
                    device_id TEXT PRIMARY KEY,
                    number    TEXT NOT NULL UNIQUE
                ) STRICT;
                CREATE TABLE mailbox (
                    id         INTEGER PRIMARY KEY,
                    recipient  TEXT NOT NULL,
                    subject    TEXT NOT NULL,
                    body       TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                ) STRICT;
                """),
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
