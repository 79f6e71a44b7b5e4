import Foundation
import SandboxTestSupport

/// The schemathesis 4.x command line (installed by `scripts/setup`), run against a live host.
///
/// One `run` is one invocation, in a child that `schemathesis-server.py` forks (``server()``), of
///
/// ```text
/// schemathesis --config-file <scratch>/schemathesis.toml run <base>/openapi.yaml --url <base>
///     --include-tag <surface> [-H 'Authorization: Bearer <credential>']
///     --exclude-checks use_after_free,ensure_resource_availability,object_level_authorization
///     --phases examples,coverage,fuzzing --max-examples 10 --seed 20261129
///     --generation-database none --request-timeout 10 --workers 1 --no-color
/// ```
///
/// with every other check on: `[checks] enabled = true` in the config file is what `--checks all`
/// selects, but `--checks all` on the command line would override the per-operation settings of
/// the file in this version, so it is not given there. It reads the document the host itself
/// serves (so the host's copy is what is checked) and sends requests to 127.0.0.1 only.
enum Schemathesis {
    /// The major version whose command line this file speaks.
    static let majorVersion = "4."
    /// Fixed, so a failure found once is found again by the next run; `SCHEMATHESIS_SEED=random`
    /// (as `make fuzz` sets) lets schemathesis draw one, which its report prints to replay with.
    static let seed: String? = {
        let chosen = ProcessInfo.processInfo.environment["SCHEMATHESIS_SEED"] ?? "20261129"
        return chosen == "random" ? nil : chosen
    }()
    /// Test cases per operation in the fuzzing phase: 10 in `make test`, whose fixed seed draws the
    /// same cases every run, so more of them buy little but time; `make fuzz` draws 200 with a new
    /// seed (`SCHEMATHESIS_MAX_EXAMPLES`). The examples and coverage phases add their own
    /// deterministic cases either way (boundaries, missing fields, wrong types, undeclared methods).
    static let maxExamples = ProcessInfo.processInfo.environment["SCHEMATHESIS_MAX_EXAMPLES"].flatMap(Int.init).map(String.init) ?? "10"

    /// Checks that cannot hold for this host, each with its reason.
    ///
    /// Everything else is checked: server errors, undocumented status codes, content types,
    /// response headers and bodies against the schemas (error envelopes with their documented
    /// codes included), schema-violating requests that are accepted, schema-valid requests that
    /// are refused, credentials that are ignored, 405 with `Allow` for undeclared methods.
    static let excludedChecks: [(check: String, reason: String)] = [
        // They follow OpenAPI links from a "create" to its resource (DELETE then GET is 404, a
        // created resource can be fetched). The document has no links and no stateful phase runs.
        ("use_after_free", "needs links and the stateful phase, neither is used"),
        ("ensure_resource_availability", "needs links and the stateful phase, neither is used"),
        // Each run has one principal (one region key, one merchant key, one session): there is no
        // second one whose objects could be reached, so the check has nothing to compare.
        ("object_level_authorization", "one principal per run: nothing to cross-check"),
    ]

    /// What one run knows about some operations beyond the document: values that exist on the
    /// host (so generated requests reach past "not found"), and statuses a well-formed request
    /// may get because of the host's state.
    struct OperationSettings {
        /// `operationId`s; each operation may appear in one entry only.
        var operations: [String]
        /// Why the entry exists (written into the config file).
        var reason: String
        /// `body.<field>` or `path.<name>` → dictionary name; drawn half of the time.
        var parameters: [(String, String)] = []
        /// Replaces the statuses `positive_data_acceptance` accepts for a schema-valid request.
        var positiveStatuses: [String]? = nil
        /// Turns `positive_data_acceptance` off for these operations.
        var noPositiveCheck = false
        /// Other checks that cannot hold for these operations (the reason says why).
        var disabledChecks: [String] = []
    }

    /// Settings every run has: what a schema cannot say about a stateful sandbox.
    static let standingSettings: [OperationSettings] = [
        OperationSettings(
            operations: ["moveClock"],
            reason: """
                `set` must not be in the sandbox's past: no JSON Schema keyword says "after now", so a schema-valid \
                date-time (year 1900) is rightly refused with 400 invalid_request. Schema-violating bodies are still \
                checked to be refused.
                """,
            noPositiveCheck: true),
        OperationSettings(
            operations: ["addFault"],
            reason: """
                A fault takes exactly one of count, share and seconds, and its status, code or delay belong to its \
                action: a combination no JSON Schema keyword can say, so a schema-valid body is often rightly 400 \
                invalid_request. Schema-violating bodies are still checked to be refused.
                """,
            noPositiveCheck: true),
        OperationSettings(
            operations: ["updateSecretCode"],
            reason: """
                Generated old codes are wrong (the device's code is no schema's business) and five wrong codes lock the \
                device: from then on a well-formed request is rightly 423 secure_code_locked, and past 20 wrong codes \
                a minute from one address 429 too_many_attempts.
                """,
            positiveStatuses: ["2xx", "401", "423", "429"]),
    ]

    /// The server every run of this test process goes to: `schemathesis-server.py`, Python with
    /// schemathesis imported once, which forks a child for each run (importing it again cost each
    /// of the suites' thirty-odd runs about a second of CPU). Started by the first run with the
    /// `python3` on `PATH`, once that was found to import schemathesis 4.x.
    static func server() throws -> LineServer { try started.get() }

    private static let started: Result<LineServer, HarnessError> = {
        do {
            let script = Paths.repository.appendingPathComponent("Tests/ConformanceTests/schemathesis-server.py")
            return .success(try LineServer(try findPython(), [script.path], name: "schemathesis-server.py"))
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    /// The `python3` on `PATH`, once its installed schemathesis is a 4.x (read from the package's
    /// metadata, without importing it: the server imports it once).
    private static func findPython() throws -> URL {
        guard let python = onPath("python3"),
            let version = try? capture([python.path, "-c", "import importlib.metadata as m; print(m.version('schemathesis'))"]),
            version.status == 0
        else {
            throw HarnessError(
                "schemathesis is not installed for the python3 on PATH; run scripts/setup, which installs the pinned 4.x version")
        }
        guard version.output.hasPrefix(majorVersion) else {
            throw HarnessError("schemathesis \(version.output) is installed, the conformance suite needs \(majorVersion)x; run scripts/setup")
        }
        return python
    }

    struct Outcome {
        var status: Int32?
        var output: String
        var commandLine: String
        var configuration: String
        var passed: Bool { status == 0 }
    }

    /// Runs one pass against `host`: the operations `filters` select, with `authorization` sent
    /// as `Authorization: Bearer …` on every request, `dictionaries` of live values bound by `settings`.
    static func run(
        against host: HostUnderTest, filters: [String], authorization: String?, dictionaries: [String: [String]] = [:],
        numbers: [String: [Int]] = [:], settings: [OperationSettings] = [], timeoutSeconds: Double = 400
    ) throws -> Outcome {
        try run(
            base: host.base, filters: filters, authorization: authorization, dictionaries: dictionaries, numbers: numbers,
            settings: settings, timeoutSeconds: timeoutSeconds)
    }

    /// Runs one pass against the service at `base` (`http://127.0.0.1:<port>`), which serves its document at `/openapi.yaml`.
    ///
    /// - Parameter header: a whole `Authorization` value to send instead (MONEI's bare API key).
    static func run(
        base: String, filters: [String], authorization: String?, header: String? = nil, dictionaries: [String: [String]] = [:],
        numbers: [String: [Int]] = [:], settings: [OperationSettings] = [], timeoutSeconds: Double = 400
    ) throws -> Outcome {
        let server = try server()
        let scratch = TemporaryDirectory()
        let config = scratch.file("schemathesis.toml")
        let text = try configuration(dictionaries: dictionaries, numbers: numbers, settings: standingSettings + settings)
        try text.write(to: config, atomically: true, encoding: .utf8)
        var arguments = ["--config-file", config.path, "run", base + "/openapi.yaml", "--url", base]
        arguments += filters
        // Every write declares JSON, body or not, as the services require of every client (SiteGate);
        // the gate's own refusals are checked in SandboxHTTPTests and the browser suite.
        arguments += ["-H", "Content-Type: application/json"]
        if let authorization { arguments += ["-H", "Authorization: Bearer \(authorization)"] }
        if let header { arguments += ["-H", "Authorization: \(header)"] }
        arguments += ["--exclude-checks", excludedChecks.map(\.check).joined(separator: ",")]
        arguments += [
            "--phases", "examples,coverage,fuzzing", "--max-examples", maxExamples,
            "--generation-database", "none", "--request-timeout", "10", "--workers", "1", "--no-color",
        ]
        if let seed { arguments += ["--seed", seed] }
        // Run in the scratch folder: nothing (hypothesis' folder, reports) lands in the checkout.
        // The limits are set for `make test`'s volume and grow with more cases per operation (`make fuzz`).
        let limit = timeoutSeconds * max(1, (Double(maxExamples) ?? 10) / 10)
        let outputFile = scratch.file("output")
        // It answers the run's pid, then its exit status; a run still going at the limit is killed.
        let answer = try server.exchange(
            ["args": arguments, "cwd": scratch.url.path, "output": outputFile.path], lines: 2, seconds: limit)
        if !answer.complete, let pid = answer.lines.first.flatMap({ pid_t($0) }) { kill(pid, SIGKILL) }
        let status = answer.complete ? Int32(answer.lines[1]) : nil
        let shown = (["schemathesis"] + arguments).map { $0.contains(" ") || $0.contains("|") ? "'\($0)'" : $0 }.joined(separator: " ")
        var output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "(schemathesis wrote no output)"
        if status == nil { output += "\n(schemathesis was killed after \(Int(limit)) s)" }
        return Outcome(status: status, output: output, commandLine: shown, configuration: text)
    }

    /// The config file of one run.
    static func configuration(
        dictionaries: [String: [String]], numbers: [String: [Int]] = [:], settings: [OperationSettings]
    ) throws -> String {
        let operations = settings.flatMap(\.operations)
        guard Set(operations).count == operations.count else {
            throw HarnessError("an operation appears in two settings entries: \(operations.sorted())")
        }
        guard Set(dictionaries.keys).isDisjoint(with: numbers.keys) else {
            throw HarnessError("a dictionary is both of strings and of numbers: \(Set(dictionaries.keys).intersection(numbers.keys))")
        }
        var text = """
            # Written by Tests/ConformanceTests for one schemathesis run.

            # Every check (what `--checks all` selects); --exclude-checks on the command line turns off the
            # few that cannot apply, and the entries below adjust one check of some operations.
            [checks]
            enabled = true

            """
        for (name, values) in dictionaries.sorted(by: { $0.key < $1.key }) where !values.isEmpty {
            text += "\n[dictionaries.\(name)]\nvalues = [\(values.map(quoted).joined(separator: ", "))]\n"
        }
        for (name, values) in numbers.sorted(by: { $0.key < $1.key }) where !values.isEmpty {
            text += "\n[dictionaries.\(name)]\nvalues = [\(values.map(String.init).joined(separator: ", "))]\n"
        }
        for entry in settings {
            text += "\n" + entry.reason.split(separator: "\n").map { "# \($0)" }.joined(separator: "\n") + "\n"
            text += "[[operations]]\ninclude-operation-id-regex = \(quoted("^(" + entry.operations.joined(separator: "|") + ")$"))\n"
            for (parameter, dictionary) in entry.parameters {
                text += "parameters.\(quoted(parameter)) = { dictionary = \(quoted(dictionary)), probability = 0.5 }\n"
            }
            if let statuses = entry.positiveStatuses {
                text += "checks.positive_data_acceptance.expected-statuses = [\(statuses.map(quoted).joined(separator: ", "))]\n"
            }
            if entry.noPositiveCheck { text += "checks.positive_data_acceptance.enabled = false\n" }
            for check in entry.disabledChecks { text += "checks.\(check).enabled = false\n" }
        }
        return text
    }

    /// A TOML basic string (the same escapes as JSON for the plain values used here).
    static func quoted(_ value: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// Runs a short command to its end, returning its exit status and output.
    static func capture(_ command: [String]) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(
            URL(fileURLWithPath: command[0]), Array(command.dropFirst()), environment: childEnvironment(),
            workingDirectory: FileManager.default.temporaryDirectory, combinedOutput: true)
        let status = child.wait(seconds: 60) ?? -1
        return (status, child.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
