import CommandLineSupport
import Foundation
import SandboxStore

/// `--database postgres://…`: a team's shared PostgreSQL instead of the SQLite files of `--data-dir`.
enum Database {
    /// The environment variable that stands for `--database` (compose and Kubernetes pass the
    /// URL, password and all, from a secret rather than on the command line).
    static let variable = "SANDBOX_DATABASE"

    /// The `--database` URL (else `$SANDBOX_DATABASE`), checked for its form (the connection is
    /// tried when the service starts).
    static func url(_ options: ParsedArguments) throws -> String? {
        let given = options.string("database") ?? ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = given else { return nil }
        guard let url = URL(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""), url.path.count > 1 else {
            throw UsageError("--database must be a PostgreSQL URL such as postgres://sandbox:secret@db:5432/sandbox, not '\(withoutPassword(text))'")
        }
        return text
    }

    /// Whether the database has a schema of this name yet (a service's state is there already).
    static func hasSchema(_ name: String, at url: String) throws -> Bool {
        let connection = try Connection(postgres: url)
        return try !connection.query("SELECT 1 AS found FROM pg_namespace WHERE nspname = ?", [.text(name)]).isEmpty
    }

    /// The URL for a log line or a dry run: its password left out.
    static func withoutPassword(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = nil
        return parts.string ?? url
    }
}
