import Launcher
import SandboxCore
import SandboxTestSupport
import Testing

/// `CommandDescription.parse` and the typed accessors of `ParsedArguments`: what a person
/// typing a command line gets back.
@Suite("command-line parsing")
struct ArgumentTests {
    let description = CommandDescription(
        name: "tool",
        summary: "A tool.",
        options: [
            .value("env", "REGION", "Region.", default: "EU"),
            .value("port", "N", "Port."),
            .value("host", "ADDRESS", "Address."),
            .value("threads", "N", "Threads."),
            .flag("dry-run", "Check only."),
        ],
        examples: ["tool --env ANZ"])

    private func parse(_ arguments: [String]) throws -> ParsedArguments {
        try #require(try description.parse(arguments))
    }

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try description.parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("an unknown option is refused by name, also in --name=value form")
    func unknownOption() {
        #expect(usageError(["--nope"]) == "unknown option '--nope'")
        #expect(usageError(["--env", "EU", "--nope=1"]) == "unknown option '--nope'")
        #expect(usageError(["--Port", "1"]) == "unknown option '--Port'")
    }

    @Test("a stray word, a single-dash option or a bare -- is refused")
    func strayArguments() {
        #expect(usageError(["EU"]) == "unexpected argument 'EU'")
        #expect(usageError(["-p", "1"]) == "unexpected argument '-p'")
        #expect(usageError(["--"]) == "unexpected argument '--'")
        #expect(usageError(["--port", "1", "2"]) == "unexpected argument '2'")
    }

    @Test("an option at the end without its value is refused, naming the placeholder")
    func missingValue() {
        #expect(usageError(["--port"]) == "--port needs a value (N)")
        #expect(usageError(["--env", "EU", "--env"]) == "--env needs a value (REGION)")
    }

    @Test("an empty value (an unset shell variable) is refused, naming the placeholder")
    func emptyValue() {
        #expect(usageError(["--env", ""]) == "--env needs a value (REGION), not an empty one")
        #expect(usageError(["--port="]) == "--port needs a value (N), not an empty one")
        #expect(usageError(["--host", ""]) == "--host needs a value (ADDRESS), not an empty one")
    }

    @Test("--name=value and --name value both set the value; the last one wins")
    func inlineValue() throws {
        #expect(try parse(["--port=9000"]).string("port") == "9000")
        #expect(try parse(["--port", "9000"]).string("port") == "9000")
        #expect(try parse(["--env=a=b"]).string("env") == "a=b")
        // A value may start with dashes when given after the option.
        #expect(try parse(["--port", "-1"]).string("port") == "-1")
        #expect(try parse(["--port", "1", "--port=2"]).string("port") == "2")
    }

    @Test("a flag is set by its name alone and refuses a value")
    func flags() throws {
        #expect(try parse(["--dry-run"]).flag("dry-run"))
        #expect(try !parse([]).flag("dry-run"))
        #expect(usageError(["--dry-run=yes"]) == "--dry-run takes no value")
        // A flag does not swallow the next word as its value.
        #expect(usageError(["--dry-run", "yes"]) == "unexpected argument 'yes'")
    }

    @Test("--help anywhere returns nil, even after other options")
    func help() throws {
        #expect(try description.parse(["--help"]) == nil)
        #expect(try description.parse(["--env", "ANZ", "--help"]) == nil)
        #expect(description.help.hasPrefix("USAGE: tool [options]"))
        #expect(description.help.contains("--env REGION"))
        #expect(description.help.contains("(default: EU)"))
        #expect(description.help.contains("--help"))
        #expect(description.help.contains("EXAMPLES:\n  tool --env ANZ"))
    }

    @Test("defaults fill what was not given, and a given value replaces them")
    func defaults() throws {
        let none = try parse([])
        #expect(none.string("env") == "EU")
        #expect(none.string("port") == nil)
        #expect(try parse(["--env", "ANZ"]).string("env") == "ANZ")
    }

    @Test("ports: 0 to 65535, anything else refused naming the option and the value")
    func ports() throws {
        #expect(try parse(["--port", "0"]).port("port") == 0)
        #expect(try parse(["--port", "65535"]).port("port") == 65535)
        #expect(try parse([]).port("port") == nil)
        for bad in ["65536", "70000", "-1", "http", "80 "] {
            #expect(throws: UsageError("--port must be a port number from 0 to 65535, not '\(bad)'")) {
                try parse(["--port", bad]).port("port")
            }
        }
    }

    @Test("integers: inside the range only")
    func integers() throws {
        #expect(try parse(["--threads", "1"]).integer("threads", in: 1...64) == 1)
        #expect(try parse(["--threads", "64"]).integer("threads", in: 1...64) == 64)
        #expect(try parse([]).integer("threads", in: 1...64) == nil)
        for bad in ["0", "65", "two", "1.5"] {
            #expect(throws: UsageError("--threads must be a whole number from 1 to 64, not '\(bad)'")) {
                try parse(["--threads", bad]).integer("threads", in: 1...64)
            }
        }
    }

    @Test("choices: case-insensitive, returned as spelled in the list, others refused listing them")
    func choices() throws {
        #expect(try parse(["--env", "anz"]).choice("env", from: ["EU", "ANZ"]) == "ANZ")
        #expect(try parse([]).choice("env", from: ["EU", "ANZ"]) == "EU")
        #expect(throws: UsageError("--env must be one of EU, ANZ, not 'XX'")) {
            try parse(["--env", "XX"]).choice("env", from: ["EU", "ANZ"])
        }
    }

    @Test("IPv4 bind addresses: four decimal parts, no names, no leading zeros")
    func ipv4() throws {
        #expect(try parse(["--host", "0.0.0.0"]).ipv4("host") == "0.0.0.0")
        #expect(try parse(["--host", "127.0.0.1"]).ipv4("host") == "127.0.0.1")
        #expect(try parse(["--host", "255.255.255.255"]).ipv4("host") == "255.255.255.255")
        #expect(try parse([]).ipv4("host") == nil)
        for bad in ["localhost", "256.0.0.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1..2.3", "::1"] {
            #expect(throws: UsageError("--host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0, not '\(bad)'")) {
                try parse(["--host", bad]).ipv4("host")
            }
        }
    }

    @Test("every service documents --dry-run and --help and has the documented defaults")
    func serviceDescriptions() throws {
        for command in [
            HostCommand.description, PortalCommand.description, WalletCommand.description, InboxCommand.description, SandboxCommand.up,
        ] {
            let names = command.options.map(\.name)
            #expect(names.contains("dry-run") && names.contains("help"), "\(command.name)")
            #expect(names.contains("host") && names.contains("sandbox-data"), "\(command.name)")
            #expect(Set(names).count == names.count, "\(command.name) lists an option twice")
        }
        let host = try #require(try HostCommand.description.parse(["--env", "EU"]))
        #expect(host.string("flavour") == "sandbox")
        #expect(host.string("data-dir") == ".sandbox")
        #expect(host.string("host") == "127.0.0.1")
        let up = try #require(try SandboxCommand.up.parse([]))
        #expect(up.string("base-port") == "8100")
        #expect(up.string("data-dir") == ".sandbox")
        #expect(HostCommand.basePort == 8100)
    }

    @Test("sandbox up --help and sandbox --help name the webhook inbox, and --help gives its port in the default layout")
    func upHelpNamesTheInbox() throws {
        let catalogue = try EnvironmentCatalogue.load(contentsOf: Paths.sandboxData.appendingPathComponent("environments.json"))
        let help = SandboxCommand.up.help
        #expect(help.contains("the wallet and the webhook inbox"), "\(help)")
        let layout = catalogue.ports
        let ports = [layout.portal, layout.wallet, layout.inbox].map { String(HostCommand.basePort + $0) }
        #expect(help.contains("(\(ports[0]), \(ports[1]), \(ports[2]) by default)"), "\(help)")
        #expect(SandboxCommand.usage.contains("the wallet and the webhook inbox"), "\(SandboxCommand.usage)")
    }
}
