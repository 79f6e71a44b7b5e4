import SandboxStore

/// The wallet's own settings (`wallet_state`): its clock's offset, kept across a restart.
package struct WalletStateRepository {
    package let db: Connection

    /// How far the wallet's clock ran ahead of real time when it last moved, in seconds (0 when it never moved).
    package func clockOffset() throws -> Double {
        guard let row = try db.query("SELECT value FROM wallet_state WHERE key = 'clock_offset'").first else { return 0 }
        return Double(try row["value"] as String) ?? 0
    }

    package func saveClockOffset(_ seconds: Double) throws {
        try db.run(
            "INSERT INTO wallet_state (key, value) VALUES ('clock_offset', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(String(seconds))])
    }
}
