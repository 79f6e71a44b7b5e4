import CommandLineSupport
import Foundation
import SandboxHTTP
import SandboxControl
import SandboxWire

/// `sandbox snapshot save|restore|list|delete [NAME] [--data-dir DIR]` and `sandbox reset`: what a
/// test asks of the whole running sandbox, found by the `endpoints.json` that `sandbox up` wrote in
/// its data directory. Every service that keeps state (each host, the wallet, the webhook inbox)
/// answers for its own part.
public enum SnapshotCommand {
    public static let snapshot = CommandDescription(
        name: "sandbox snapshot",
        summary: """
            Saves the state of every service of a running sandbox under a name (each host's database, clock and faults, the wallet, \
            the webhook inbox), brings it back, lists or deletes snapshots. USAGE: sandbox snapshot save|restore|delete NAME, \
            sandbox snapshot list.
            """,
        options: [.value("data-dir", "DIR", "The data directory of the running sandbox ('sandbox up --data-dir').", default: ".sandbox")],
        examples: [
            "sandbox snapshot save before-checkout", "sandbox snapshot list", "sandbox snapshot restore before-checkout",
            "sandbox snapshot delete before-checkout",
        ])

    public static let reset = CommandDescription(
        name: "sandbox reset",
        summary: "Resets every region of a running sandbox to its fixtures, the wallet to wallet.json, and empties the webhook inbox.",
        options: [.value("data-dir", "DIR", "The data directory of the running sandbox ('sandbox up --data-dir').", default: ".sandbox")],
        examples: ["sandbox reset"])

    /// `sandbox snapshot …`: the action and the name come before the options.
    static func main(_ arguments: ArraySlice<String>) -> Never {
        let action = arguments.first
        var rest = arguments.dropFirst()
        var name: String?
        if let first = rest.first, !first.hasPrefix("--") {
            name = first
            rest = rest.dropFirst()
        }
        guard let action, !action.hasPrefix("--") else {
            CommandMain.run(snapshot, arguments: arguments) { _ in throw UsageError("name an action: save, restore, list or delete") }
        }
        CommandMain.run(snapshot, arguments: rest) { options in
            if let name, !SnapshotShelf.isValid(name) {
                throw UsageError("a snapshot name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, not '\(name)'")
            }
            let sandbox = try RunningSandbox(options)
            switch (action, name) {
            case ("list", nil): try sandbox.list()
            case ("save", let name?): CommandMain.say(try sandbox.saved(name))
            case ("restore", let name?): CommandMain.say(try sandbox.restored(name))
            case ("delete", let name?): CommandMain.say(try sandbox.deleted(name))
            case ("list", _?): throw UsageError("'list' takes no name")
            case ("save", nil), ("restore", nil), ("delete", nil): throw UsageError("'\(action)' needs a snapshot name")
            default: throw UsageError("unknown action '\(action)': save, restore, list or delete")
            }
        }
    }

    static func runReset(_ options: ParsedArguments) throws {
        let sandbox = try RunningSandbox(options)
        let started = ContinuousClock.now
        try sandbox.reset()
        CommandMain.say("Reset \(sandbox.services.count) services in \(milliseconds(since: started)) ms.")
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// The running sandbox a command works on: its services' control calls (``SandboxControl``), found
/// by the `endpoints.json` that `sandbox up` wrote in its data directory.
typealias RunningSandbox = SandboxControl

/// A command's own words for what the sandbox refused or could not do.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    /// The service's error envelope, when it answered with one.
    var envelope: ErrorEnvelope? = nil
}

extension SandboxControl {
    init(_ options: ParsedArguments) throws {
        let directory = URL(fileURLWithPath: options.string("data-dir") ?? ".sandbox")
        let file = directory.appendingPathComponent("endpoints.json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw UsageError("no sandbox is running with data in \(directory.path) (no endpoints.json there): start one with 'sandbox up --data-dir \(directory.path)'")
        }
        let endpoints: EndpointsFile
        do { endpoints = try EndpointsFile.load(from: file) } catch { throw UsageError(error.description) }
        self.init(endpoints)
    }

    func list() throws {
        let snapshots = try snapshots()
        guard !snapshots.isEmpty else { return CommandMain.say("No snapshots yet: 'sandbox snapshot save NAME' saves one.") }
        var rows = [("NAME", "SAVED", "SERVICES", "BYTES")]
        for snapshot in snapshots {
            rows.append((snapshot.name, snapshot.savedAt, "\(snapshot.services) of \(services.count)", "\(snapshot.bytes)"))
        }
        let widths = [rows.map(\.0.count).max()!, rows.map(\.1.count).max()!, rows.map(\.2.count).max()!]
        for row in rows {
            CommandMain.say(
                row.0.padding(toLength: widths[0] + 2, withPad: " ", startingAt: 0) + row.1.padding(toLength: widths[1] + 2, withPad: " ", startingAt: 0)
                    + row.2.padding(toLength: widths[2] + 2, withPad: " ", startingAt: 0) + row.3)
        }
    }

    /// Saves every service's part; what to tell the tester.
    func saved(_ name: String) throws -> String {
        let started = ContinuousClock.now
        try save(name)
        return "Saved snapshot '\(name)' of \(services.count) services in \(SnapshotCommand.milliseconds(since: started)) ms."
    }

    /// Restores only when every service holds its part: a snapshot is brought back whole or not at all.
    func restored(_ name: String) throws -> String {
        let started = ContinuousClock.now
        do {
            try restore(name)
        } catch let absent as SnapshotAbsent {
            throw CommandFailure(
                description: absent.nowhere
                    ? "no snapshot named '\(name)' ('sandbox snapshot list' shows them); nothing was restored"
                    : "snapshot '\(name)' has no part for \(absent.missing.joined(separator: ", ")) (saved before they ran?); nothing was restored")
        }
        return "Restored snapshot '\(name)' on \(services.count) services in \(SnapshotCommand.milliseconds(since: started)) ms."
    }

    func deleted(_ name: String) throws -> String {
        do {
            try delete(name)
        } catch is SnapshotAbsent {
            throw CommandFailure(description: "no snapshot named '\(name)' ('sandbox snapshot list' shows them)")
        }
        return "Deleted snapshot '\(name)'."
    }
}
