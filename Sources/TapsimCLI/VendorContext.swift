import CommandLineSupport
import Foundation
import Synchronization
import SimulatedReader

/// One invocation of another vendor's commands (`tapsim monei …`, `tapsim pagbank …`): that
/// vendor's region host from `endpoints.json`, the device folder, and what the vendor's SDK is
/// launched with. The vendor's own steps are extensions (Monei.swift, PagBank.swift).
final class VendorContext: @unchecked Sendable {
    let globals: GlobalOptions
    let endpoints: SandboxEndpoints
    let region: String
    let host: URL
    let deviceDirectory: URL

    /// The context of `region`'s commands; `--env` may only repeat it.
    init(globals: GlobalOptions, region expected: String) throws(UsageError) {
        self.globals = globals
        endpoints = try SandboxEndpoints.load(explicit: globals.endpoints, relativeTo: globals.directory)
        region = try endpoints.region(globals.region ?? expected)
        guard region == expected else {
            throw UsageError("'tapsim \(expected.lowercased())' talks to the \(expected) host (--env \(expected)), not \(region)")
        }
        host = try endpoints.hostURL(for: region)
        deviceDirectory = globals.device.map(globals.url) ?? endpoints.deviceDirectory(for: region)
    }

    /// The reader's clock: waits skipped unless `--real-time`.
    var readerClock: any ReaderClock { globals.realTime ? LiveReaderClock() : SkippingClock() }

    /// The test card named `name`, or the first plain card issued in `country`.
    func card(named name: String?, country: String) throws(UsageError) -> TestCard {
        try SandboxData.locate(explicit: globals.sandboxDataPath).card(named: name, country: country)
    }

    /// `sandbox-data/merchants.json`'s part for this region.
    func sandboxData() throws(UsageError) -> SandboxData.Region {
        try SandboxData.locate(explicit: globals.sandboxDataPath).region(region)
    }

    /// `--dry-run`: the command, its options, the host and the device folder, and which of `files` exist there.
    func resolved(_ command: Command, _ options: ParsedArguments, files: [String]) -> JSONValue {
        var given: [(String, JSONValue)] = []
        for option in command.description.options where option.name != "help" {
            given.append((option.name, option.placeholder == nil ? .bool(options.flag(option.name)) : JSONValue(options.string(option.name))))
        }
        let present = files.map { ($0, JSONValue.bool(FileManager.default.fileExists(atPath: deviceDirectory.appendingPathComponent($0).path))) }
        return .object([
            ("dryRun", true), ("command", .string(command.name)), ("options", .object(given)), ("region", .string(region)),
            ("host", .string(host.absoluteString)), ("endpoints", .string(endpoints.file.standardizedFileURL.path)),
            ("deviceDirectory", .string(deviceDirectory.path)), ("files", .object(present)), ("json", .bool(globals.json)),
            ("field", JSONValue(globals.field)), ("realTime", .bool(globals.realTime)),
        ])
    }

    /// Writes `data` owner-only into the device folder (made 0700).
    func writePrivate(_ data: Data, to name: String) throws {
        try FileManager.default.createDirectory(at: deviceDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = deviceDirectory.appendingPathComponent(name)
        try data.write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}

extension VendorContext {
    /// MONEI's, PagBank's and Geopagos' SDKs each keep one state per app, as on a phone (the
    /// configured endpoint, the reader, the running intent): in one process, one vendor's
    /// commands take turns, each vendor its own.
    static func turns(of region: String) -> Turns {
        everyRegionsTurns.withLock { turns in
            if let existing = turns[region] { return existing }
            let made = Turns()
            turns[region] = made
            return made
        }
    }

    private static let everyRegionsTurns = Mutex<[String: Turns]>([:])
}

/// Runs one job at a time, in the order they asked.
actor Turns {
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    nonisolated func run<T>(_ job: () async throws -> T) async rethrows -> T {
        await take()
        do {
            let value = try await job()
            await give()
            return value
        } catch {
            await give()
            throw error
        }
    }

    private func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
    }
}
