import Foundation
import SandboxTestSupport
import Testing

/// The issue's "done when": every example of every `tapsim … --help` runs as written, through
/// bash, in a folder laid out as a fresh `sandbox up` leaves the checkout (`.sandbox/endpoints.json`
/// and `sandbox-data/` in the working folder, `tapsim` on the PATH), top to bottom: `tapsim --help`'s
/// examples, then each command's in the order `tapsim --help` lists them, each on what the earlier
/// ones left. Only a new device is set up between help texts (a fresh EU device, or another
/// region's); an EU device the examples need registered, logged in or prepared must be so already.
@Suite("tapsim: every example of every --help runs as written", .blocksThreads)
struct HelpExamplesTests {
    /// What a command's examples take for granted, arranged before the first one runs (the
    /// examples of one help text then run in order, each on what the earlier ones left).
    enum Needs: Sendable, Comparable {
        /// Nothing: the examples run on whatever the earlier ones left.
        case anything
        /// No device registered in any region.
        case freshDevice
        /// The EU device registered by `register quick --pin 2468`.
        case registered
        /// …and logged in.
        case loggedIn
        /// …and its reader prepared.
        case ready
        /// An mBank device (`--env MBANK`) registered on MBANK-T0101 (BLIK on) and logged in.
        case blikLoggedIn
        /// PagBank's Tap On activated on its device (`tapsim pagbank activate`).
        case pagbankActive
    }

    /// Every help text with examples: `tapsim` itself and each command. A command missing here
    /// fails the test, so a new command's examples cannot go untried.
    static let needs: [String: Needs] = [
        "tapsim": .freshDevice,
        "register begin": .freshDevice, "register confirm": .freshDevice, "register end": .freshDevice,
        "register issue": .freshDevice, "register revoke": .freshDevice, "register token": .freshDevice, "register quick": .freshDevice,
        "login": .registered, "logout": .registered, "prepare": .loggedIn, "pay": .ready, "refund": .ready, "reverse": .ready,
        "dcc": .ready, "qr pay": .loggedIn, "qr cancel": .loggedIn, "qr refund": .loggedIn,
        "blik code": .anything, "blik pay": .blikLoggedIn, "blik refund": .blikLoggedIn, "last": .ready, "history": .ready, "count": .ready, "details": .ready, "stats": .ready, "receipt": .ready,
        "terminal-info": .loggedIn, "info-init": .loggedIn, "reader-test": .ready, "validate": .loggedIn, "secret-code": .loggedIn,
        "relink": .loggedIn, "support": .anything, "unregister": .registered, "status": .anything, "demo": .anything,
        // The MONEI device keeps only its POS token (`monei prepare`), in its own folder.
        "monei token": .anything, "monei prepare": .anything, "monei pay": .anything,
        "pagbank activate": .anything, "pagbank pay": .anything, "pagbank cancel": .pagbankActive, "pagbank status": .anything,
        "pagbank logout": .pagbankActive,
        // Each Geopagos command is one launch of the app: it buys its own reader token.
        "geopagos token": .anything, "geopagos pay": .anything, "geopagos refund": .anything, "geopagos cancel": .anything,
    ]

    @Test("each example exits 0, or with the exit code its comment names")
    func examples() throws {
        let sandbox = try SandboxUnderTest()
        let layout = try Layout(sandbox)
        let helps = try layout.helpTexts()
        #expect(Set(helps.map(\.command)) == Set(Self.needs.keys), "help texts and this test's table differ")
        var ran = 0
        for help in helps {
            let needs = try #require(Self.needs[help.command], "add what '\(help.command)' examples need to HelpExamplesTests.needs")
            if let short = try layout.shortOf(needs) {
                Issue.record("'\(help.command)' examples need the EU device \(needs), but the examples before them left it \(short): a reader running them top to bottom fails here")
            }
            try layout.arrange(needs)
            for example in help.examples {
                #expect(!example.contains("…"), "'\(help.command)' example has a placeholder: \(example)")
                let expected = Self.expectedExit(example)
                let result = try layout.bash(example)
                ran += 1
                #expect(
                    result.status == expected, "tapsim \(help.command) --help example:\n  \(example)\nexpected exit \(expected)\n\(result)")
            }
        }
        #expect(ran >= helps.count, "every help text has at least one example (\(ran) for \(helps.count))")
    }

    /// 0, or N when the example's comment says `exit N` (an example that shows an error).
    static func expectedExit(_ example: String) -> Int32 {
        guard let comment = example.range(of: "#", options: .backwards).map({ example[$0.upperBound...] }),
            let match = comment.range(of: #"exit [0-9]+"#, options: .regularExpression)
        else { return 0 }
        return Int32(comment[match].dropFirst(5))!
    }

    /// The working folder as a user has it after `make run`, and how the test moves the device.
    struct Layout {
        let sandbox: SandboxUnderTest
        let bin: URL

        init(_ sandbox: SandboxUnderTest) throws {
            self.sandbox = sandbox
            let files = FileManager.default
            let dotSandbox = sandbox.work.appendingPathComponent(".sandbox")
            try files.createDirectory(at: dotSandbox, withIntermediateDirectories: true)
            try files.copyItem(at: sandbox.endpoints, to: dotSandbox.appendingPathComponent("endpoints.json"))
            try files.createSymbolicLink(at: sandbox.work.appendingPathComponent("sandbox-data"), withDestinationURL: Paths.sandboxData)
            bin = sandbox.folder.file("bin")
            try files.createDirectory(at: bin, withIntermediateDirectories: true)
            try files.createSymbolicLink(at: bin.appendingPathComponent("tapsim"), withDestinationURL: sandbox.tapsim)
        }

        /// `bash -c LINE` in the working folder with `tapsim` on the PATH.
        func bash(_ line: String, timeout: TimeInterval = 60) throws -> ProcessOutput {
            let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            return try run(
                URL(fileURLWithPath: "/bin/bash"), ["-c", line], in: sandbox.work, environment: ["PATH": path], timeout: timeout)
        }

        /// `tapsim ARGUMENTS…` as the examples run it (no --endpoints, no --sandbox-data).
        func tapsim(_ arguments: [String]) throws -> ProcessOutput {
            try run(sandbox.tapsim, arguments, in: sandbox.work)
        }

        /// What the EU device is, when it is less than `needs` asks of the examples before
        /// (registered, logged in, prepared); nil when it is enough, or when `needs` is a new device.
        func shortOf(_ needs: Needs) throws -> Needs? {
            guard needs >= .registered, needs <= .ready else { return nil }
            let status = try tapsim(["--json", "status"])
            let object = try #require(status.json, "\(status)")
            let now: Needs =
                object["prepared"] as? Bool == true ? .ready
                : object["loggedIn"] as? Bool == true ? .loggedIn
                : object["registered"] as? Bool == true ? .registered : .freshDevice
            return now < needs ? now : nil
        }

        /// Brings the device to what the examples need: a fresh EU device (every region's device
        /// unregistered, every host as `make run` leaves it), another region's device, or, after
        /// ``shortOf(_:)`` complained, the EU device the examples needed; nothing for `.anything`
        /// or an EU device that is already enough.
        func arrange(_ needs: Needs) throws {
            switch needs {
            case .anything: return
            case .registered, .loggedIn, .ready: if try shortOf(needs) == nil { return }
            case .blikLoggedIn:
                let status = try tapsim(["--env", "MBANK", "--json", "status"])
                if status.json?["terminalId"] as? String == "MBANK-T0101", status.json?["loggedIn"] as? Bool == true { return }
                _ = try tapsim(["--env", "MBANK", "unregister"])
                for step in [["--env", "MBANK", "register", "quick", "--pin", "2468", "--terminal", "MBANK-T0101"], ["--env", "MBANK", "login", "--pin", "2468"]] {
                    let result = try tapsim(step)
                    try #require(result.status == 0, "arranging \(needs): tapsim \(step.joined(separator: " ")): \(result)")
                }
                return
            case .pagbankActive:
                let status = try tapsim(["--json", "pagbank", "status"])
                if status.json?["active"] as? Bool == true { return }
                let result = try tapsim(["pagbank", "activate"])
                try #require(result.status == 0, "arranging \(needs): \(result)")
                return
            case .freshDevice: break
            }
            try arrangeFrom(fresh: needs)
        }

        /// Every device unregistered, every host reset, then the steps to `needs`.
        private func arrangeFrom(fresh needs: Needs) throws {
            let devices = sandbox.work.appendingPathComponent(".sandbox/devices")
            for region in (try? FileManager.default.contentsOfDirectory(atPath: devices.path)) ?? [] {
                _ = try tapsim(["--env", region, "unregister"])
                try FileManager.default.removeItem(at: devices.appendingPathComponent(region))
            }
            // Every example meets the sandbox as `make run` leaves it: no registration token an
            // earlier example issued still locks its terminal against a challenge code.
            for (region, url) in sandbox.sandbox.endpoints.environments {
                let reset = Service(name: region, baseURL: url).call("POST", "/_sandbox/reset")
                try #require(reset.status == 204, "reset \(region): \(reset)")
            }
            let steps: [[String]]
            switch needs {
            case .registered: steps = [["register", "quick", "--pin", "2468"]]
            case .loggedIn: steps = [["register", "quick", "--pin", "2468"], ["login", "--pin", "2468"]]
            case .ready: steps = [["register", "quick", "--pin", "2468"], ["login", "--pin", "2468"], ["prepare"]]
            default: steps = []
            }
            for step in steps {
                let result = try tapsim(step)
                try #require(result.status == 0, "arranging \(needs): tapsim \(step.joined(separator: " ")): \(result)")
            }
        }

        struct Help {
            var command: String
            var examples: [String]
        }

        /// `tapsim --help`'s examples, then each command's, in the order `tapsim --help` lists them.
        func helpTexts() throws -> [Help] {
            let top = try tapsim(["--help"])
            try #require(top.status == 0, "\(top)")
            var helps = [Help(command: "tapsim", examples: Self.examples(top.stdout))]
            for command in Self.commands(top.stdout) {
                let help = try tapsim(command.split(separator: " ").map(String.init) + ["--help"])
                try #require(help.status == 0, "tapsim \(command) --help: \(help)")
                helps.append(Help(command: command, examples: Self.examples(help.stdout)))
            }
            return helps
        }

        /// The names under `COMMANDS:` (`register begin`, `pay` …).
        static func commands(_ help: String) -> [String] {
            section("COMMANDS:", of: help).compactMap { line in
                line.components(separatedBy: "  ").first.map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }

        static func examples(_ help: String) -> [String] { section("EXAMPLES:", of: help) }

        /// The indented lines under `title`, up to the first blank line.
        static func section(_ title: String, of help: String) -> [String] {
            let lines = help.components(separatedBy: "\n")
            guard let start = lines.firstIndex(of: title) else { return [] }
            return lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
    }
}
