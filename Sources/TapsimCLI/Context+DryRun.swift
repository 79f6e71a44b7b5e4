import CommandLineSupport
import Foundation

/// `--dry-run`: what an invocation would use, resolved as for a real run, without a request.
extension Context {
    /// The command and its options, the region and SDK environment, the host from
    /// `endpoints.json`, the device folder and which of its files exist, and `sandbox-data/`.
    func resolved(_ command: Command, _ options: ParsedArguments) -> JSONValue {
        var given: [(String, JSONValue)] = []
        for option in command.description.options where option.name != "help" {
            if option.placeholder == nil {
                given.append((option.name, .bool(options.flag(option.name))))
            } else {
                given.append((option.name, JSONValue(options.string(option.name))))
            }
        }
        let files = FileManager.default
        let sandboxData = try? sandboxData().directory.path
        return .object([
            ("dryRun", true), ("command", .string(command.name)), ("options", .object(given)), ("region", .string(region)),
            ("environment", .string(environment.rawValue)), ("flavour", .string(environment.flavour)),
            ("host", .string(host.absoluteString)), ("endpoints", .string(endpoints.file.standardizedFileURL.path)),
            ("endpointsProblem", JSONValue(endpointsProblem)),
            ("deviceDirectory", .string(deviceDirectory.path)),
            ("deviceFile", .bool(files.fileExists(atPath: deviceDirectory.appendingPathComponent("device.json").path))),
            ("tapsimFile", .bool(files.fileExists(atPath: deviceDirectory.appendingPathComponent(TapsimState.fileName).path))),
            ("sandboxData", JSONValue(sandboxData)), ("json", .bool(globals.json)), ("field", JSONValue(globals.field)),
            ("realTime", .bool(globals.realTime)),
        ])
    }
}
