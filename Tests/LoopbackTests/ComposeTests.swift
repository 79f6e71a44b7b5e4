import Foundation
import SandboxCore
import SandboxTestSupport
import Synchronization
import Testing

/// `docker-compose.yml` against the executables and the catalogue.
///
/// No Docker engine runs here, so the file is checked the way the engine would fail on it:
/// every service's command is run through the real executable with `--dry-run` (an unknown or
/// misspelled flag, a bad value, a missing region exits 2), and the ports, healthchecks and
/// volumes are compared with what those dry runs resolved.
@Suite("docker-compose.yml", .blocksThreads)
struct ComposeTests {
    @Test("every service runs a built executable whose flags and values it accepts, in the sandbox up layout")
    func composeFileIsConsistent() throws {
        let document = try composeDocument()
        let problems = try ComposeCheck(catalogue: loadCatalogue()).problems(in: document)
        #expect(problems.isEmpty, "docker-compose.yml:\n\(problems.joined(separator: "\n"))")
    }

    /// The check above must bite: each broken copy of the real file is reported, naming the mistake.
    @Test("a broken compose file is reported", arguments: ComposeMutation.all)
    func brokenComposeFileIsReported(_ mutation: ComposeMutation) throws {
        var document = try composeDocument()
        try mutation.apply(&document)
        let problems = try ComposeCheck(catalogue: loadCatalogue()).problems(in: document)
        #expect(
            problems.contains { $0.contains(mutation.expectedProblem) },
            "expected a problem containing “\(mutation.expectedProblem)”, got:\n\(problems.joined(separator: "\n"))")
    }

    @Test("the team profile's nginx.conf is one nginx accepts (Debian's nginx -t, the replicas' names as loopback)")
    func teamProxyConfigurationIsValid() throws {
        let scratch = TemporaryDirectory()
        let config = try String(contentsOf: Paths.repository.appendingPathComponent("deploy/team/nginx.conf"), encoding: .utf8)
        let local = config.replacingOccurrences(of: #"team-eu-[0-9]+"#, with: "127.0.0.1", options: .regularExpression)
        try local.write(to: scratch.file("nginx.conf"), atomically: true, encoding: .utf8)
        let nginx = try #require(onPath("nginx") ?? URL(fileURLWithPath: "/usr/sbin/nginx"), "nginx is not installed (scripts/setup)")
        let checked = try SpawnedProcess.run(
            nginx, ["-t", "-c", scratch.file("nginx.conf").path, "-p", scratch.url.path, "-e", "stderr", "-g", "pid \(scratch.file("nginx.pid").path);"])
        #expect(checked.status == 0, "\(checked)")
    }

    @Test("the Dockerfile ships every executable compose runs and the folders they read")
    func dockerfileShipsWhatComposeRuns() throws {
        let dockerfile = try String(contentsOf: Paths.repository.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let lines = dockerfile.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let document = try composeDocument()
        let services = try #require(document["services"] as? [String: Any])
        let executables = Set(services.values.compactMap { (($0 as? [String: Any])?["command"] as? [Any])?.first as? String }
            .map { URL(fileURLWithPath: $0).lastPathComponent })
        #expect(!executables.isEmpty)
        let copiesToBin = lines.filter { $0.hasPrefix("COPY") && $0.contains("/app/bin") }.joined(separator: " ")
        for name in executables.sorted() {
            #expect(copiesToBin.contains(name), "the Dockerfile does not copy \(name) to /app/bin")
        }
        for folder in ["sandbox-data", "web", "openapi"] {
            #expect(lines.contains { $0.hasPrefix("COPY \(folder) /app/\(folder)") }, "the Dockerfile does not copy \(folder) to /app")
        }
        #expect(dockerfile.contains("TAPSANDBOX_HOME=/app"), "the executables find their folders through TAPSANDBOX_HOME=/app")
        #expect(dockerfile.contains("/app/bin:$PATH"), "compose commands name the executables bare: /app/bin must be on PATH")
        #expect(lines.contains("VOLUME /data"))
        let user = try #require(lines.last { $0.hasPrefix("USER ") }, "the image must not run as root")
        #expect(!["USER root", "USER 0"].contains(user))
        let runtime = try #require(dockerfile.range(of: "FROM debian:bookworm-slim"), "runtime stage from debian:bookworm-slim")
        for library in ["libmicrohttpd12", "libcurl4", "libsqlite3-0", "libpq5", "libssl3", "libqrencode4", "curl"] {
            #expect(dockerfile[runtime.upperBound...].contains(library), "the runtime stage lacks \(library)")
        }
    }

    @Test("the docker run of the README and docs/running.md is the Dockerfile's (which make check-image checks against EXPOSE), and the image's command starts")
    func readmeDockerRunIsTheDockerfiles() throws {
        let dockerfile = try String(contentsOf: Paths.repository.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let header = try #require(dockerfile.components(separatedBy: "\n").first { $0.contains("docker run --rm -p") })
        let dockerRun = try #require(header.range(of: "docker run[^#]*", options: .regularExpression).map { header[$0].trimmingCharacters(in: .whitespaces) })
        for file in ["README.md", "docs/running.md"] {
            let text = try String(contentsOf: Paths.repository.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("docker build -t tapsandbox . && \(dockerRun)"), "\(file) lacks “\(dockerRun)”")
        }
        // The CMD's arguments, through the real executable (the image runs it with TAPSANDBOX_HOME=/app).
        let cmd = try #require(dockerfile.components(separatedBy: "\n").last { $0.hasPrefix("CMD [") })
        let words = try #require(try JSONSerialization.jsonObject(with: Data(cmd.dropFirst(4).utf8)) as? [String])
        let result = try run(builtExecutable(words[0]), Array(words.dropFirst()) + ["--dry-run"])
        #expect(result.exited && result.status == 0, "\(cmd): \(result)")
    }
}

/// Parses a YAML file with PyYAML (installed by scripts/setup) into JSON objects.
/// docker-compose.yml as JSON, read by PyYAML once per test process (each test gets its own copy).
func composeDocument() throws -> [String: Any] {
    let data = try composeJSON.get()
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "docker-compose.yml is not a mapping")
}

private let composeJSON: Result<Data, HarnessError> = {
    do {
        return .success(try JSONSerialization.data(withJSONObject: try loadYAML(Paths.repository.appendingPathComponent("docker-compose.yml"))))
    } catch {
        return .failure(HarnessError("cannot read docker-compose.yml: \(error)"))
    }
}()

func loadYAML(_ file: URL) throws -> [String: Any] {
    // The python3 scripts/setup installed PyYAML for (on PATH; on macOS, make puts .build/python first).
    let python = try #require(onPath("python3"), "python3 with PyYAML is needed; run scripts/setup")
    let result = try run(
        python,
        ["-c", "import yaml,json,sys; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", file.path])
    try #require(result.exited && result.status == 0, "cannot parse \(file.lastPathComponent): \(result)")
    return try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
        "\(file.lastPathComponent) is not a mapping")
}

/// Each command line's `--dry-run`, run once per test process: its answer depends only on the
/// command line and the checkout, and the fifteen broken copies of the compose file share most of
/// their fourteen services' commands with the real one.
enum DryRuns {
    private static let answers = Mutex<[[String]: ProcessOutput]>([:])

    static func run(_ executable: URL, _ arguments: [String]) throws -> ProcessOutput {
        let key = [executable.path] + arguments
        if let known = answers.withLock({ $0[key] }) { return known }
        let answer = try LoopbackTests.run(executable, arguments)
        answers.withLock { $0[key] = answer }
        return answer
    }
}

/// The rules a compose file must keep; `problems(in:)` lists every one it breaks.
struct ComposeCheck {
    let catalogue: EnvironmentCatalogue
    /// Where the layout starts: Worldline region i on basePort + i, then the portal, the wallet and the
    /// webhook inbox, then the other vendors' regions (``PortLayout``).
    let basePort = 8100

    /// What one service resolved to.
    private struct Resolved {
        var name: String
        var kind: String
        var port: Int
        var bindAddress: String
        var region: String?
        var environments: [String: String]?
        /// A host's `--webhook-inbox`, as its dry run resolved it.
        var webhookInbox: String?
        /// A host's `--wallet-url`, as its dry run resolved it.
        var walletURL: String? = nil
        var published: [(published: Int, target: Int)]
    }

    func problems(in document: [String: Any]) throws -> [String] {
        var problems: [String] = []
        guard let all = document["services"] as? [String: Any], !all.isEmpty else {
            return ["no services"]
        }
        // The team profile (replicas on PostgreSQL) has rules of its own (teamProblems); the layout
        // of `sandbox up` is the default services'.
        let services = all.filter { ($0.value as? [String: Any])?["profiles"] == nil }
        problems += try teamProblems(in: document)
        let declaredVolumes = Set((document["volumes"] as? [String: Any])?.keys.map { $0 } ?? [])
        var resolved: [Resolved] = []
        for name in services.keys.sorted() {
            guard let service = services[name] as? [String: Any] else {
                problems.append("\(name): not a mapping")
                continue
            }
            if let result = try check(name, service, declaredVolumes: declaredVolumes, problems: &problems) {
                resolved.append(result)
            }
        }

        // One host per region of the catalogue, at the port sandbox up gives it.
        let regions = catalogue.regions.map(\.id)
        let ports = catalogue.ports
        let hosts = resolved.filter { $0.kind == "sandbox-host" }
        for region in regions {
            let serving = hosts.filter { $0.region == region }
            if serving.isEmpty { problems.append("no service runs the \(region) host") }
            if serving.count > 1 { problems.append("\(serving.map(\.name).joined(separator: ", ")) all run the \(region) host") }
            let expected = basePort + (ports.offset(of: region) ?? -basePort)
            for host in serving where host.port != expected {
                problems.append("\(host.name): the \(region) host listens on \(host.port), not \(expected) as in sandbox up")
            }
        }
        let portals = resolved.filter { $0.kind == "portal-sim" }
        let wallets = resolved.filter { $0.kind == "wallet-sim" }
        if portals.count != 1 { problems.append("expected one portal-sim service, found \(portals.count)") }
        if wallets.count != 1 { problems.append("expected one wallet-sim service, found \(wallets.count)") }
        for portal in portals where portal.port != basePort + ports.portal {
            problems.append("\(portal.name): the portal listens on \(portal.port), not \(basePort + ports.portal)")
        }
        for wallet in wallets where wallet.port != basePort + ports.wallet {
            problems.append("\(wallet.name): the wallet listens on \(wallet.port), not \(basePort + ports.wallet)")
        }
        let inboxes = resolved.filter { $0.kind == "webhook-inbox" }
        if inboxes.count != 1 { problems.append("expected one webhook-inbox service, found \(inboxes.count)") }
        for inbox in inboxes where inbox.port != basePort + ports.inbox {
            problems.append("\(inbox.name): the webhook inbox listens on \(inbox.port), not \(basePort + ports.inbox)")
        }

        // As under `sandbox up`, every host sends the webhooks of merchants without an endpoint to
        // the inbox, by its compose service name and container port.
        if let inbox = inboxes.first, let target = inbox.published.first?.target {
            let expected = "http://\(inbox.name):\(target)"
            for host in hosts where host.webhookInbox != expected {
                problems.append("\(host.name): --webhook-inbox is \(host.webhookInbox ?? "not set"), expected \(expected)")
            }
        }

        // As under `sandbox up`, every host makes its QR orders at the wallet, by its compose service
        // name and container port (without it, QR payments answer apm_provider_unavailable).
        if let wallet = wallets.first, let target = wallet.published.first?.target {
            let expected = "http://\(wallet.name):\(target)"
            for host in hosts where host.walletURL != expected {
                problems.append("\(host.name): --wallet-url is \(host.walletURL ?? "not set"), expected \(expected)")
            }
        }

        // The portal calls every host server to server, so from its container: by compose
        // service name (the name on the compose network) and container port.
        for portal in portals {
            var expected: [String: String] = [:]
            for host in hosts {
                guard let region = host.region, let target = host.published.first?.target else { continue }
                expected[region] = "http://\(host.name):\(target)"
            }
            let listed = portal.environments ?? [:]
            for region in regions where listed[region] != expected[region] {
                problems.append(
                    "\(portal.name): --environments has \(region)=\(listed[region] ?? "nothing"), "
                        + "expected \(expected[region] ?? "a host for it")")
            }
        }

        // No two services on one port, inside or outside their containers.
        for (label, ports) in [
            ("published", resolved.flatMap { service in service.published.map { ($0.published, service.name) } }),
            ("container", resolved.flatMap { service in service.published.map { ($0.target, service.name) } }),
        ] {
            for (port, users) in Dictionary(grouping: ports, by: { $0.0 }) where users.count > 1 {
                problems.append("\(label) port \(port) is used by \(users.map(\.1).joined(separator: ", "))")
            }
        }
        return problems
    }

    /// The team profile: PostgreSQL with a health check, two replicas or more of one region's host
    /// whose dry runs pass, every one on the same `SANDBOX_DATABASE` in that database, each
    /// trusting exactly the proxy's fixed address, and the proxy's nginx.conf sending to every one.
    func teamProblems(in document: [String: Any]) throws -> [String] {
        var problems: [String] = []
        let services = (document["services"] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
            .filter { ($0.value["profiles"] as? [String])?.contains("team") == true }
        guard !services.isEmpty else { return ["no team profile (PostgreSQL, replicas and their proxy)"] }
        let databases = services.filter { ($0.value["image"] as? String)?.hasPrefix("postgres:") == true }
        guard let (dbName, db) = databases.first, databases.count == 1 else { return ["the team profile needs one postgres service"] }
        if db["healthcheck"] == nil { problems.append("\(dbName): no healthcheck, so the replicas cannot wait for it") }
        let replicas = services.filter { ($0.value["command"] as? [String])?.first == "sandbox-host" }
        if replicas.count < 2 { problems.append("the team profile runs \(replicas.count) replica(s) of a host, not two or more") }
        let proxies = services.filter { ($0.value["image"] as? String)?.hasPrefix("nginx:") == true }
        guard let (proxyName, proxy) = proxies.first, proxies.count == 1 else { return problems + ["the team profile needs one nginx proxy"] }
        let proxyAddress = ((proxy["networks"] as? [String: Any])?["team"] as? [String: Any])?["ipv4_address"] as? String
        let configMount = (proxy["volumes"] as? [String])?.first { $0.hasSuffix(":/etc/nginx/nginx.conf:ro") }
        let config = try configMount.map { mount in
            try String(contentsOf: Paths.repository.appendingPathComponent(String(mount.dropFirst(2).split(separator: ":")[0])), encoding: .utf8)
        }
        if config == nil { problems.append("\(proxyName): mounts no nginx.conf of the checkout") }
        var urls: Set<String> = []
        var regions: Set<String> = []
        for (name, replica) in replicas.sorted(by: { $0.key < $1.key }) {
            let words = replica["command"] as? [String] ?? []
            let environment = replica["environment"] as? [String: Any] ?? [:]
            let url = environment["SANDBOX_DATABASE"] as? String ?? ""
            urls.insert(url)
            if !url.hasPrefix("postgres://") || !url.contains("@\(dbName):5432/") {
                problems.append("\(name): SANDBOX_DATABASE is '\(url)', not a postgres:// URL of \(dbName)")
            }
            if let at = words.firstIndex(of: "--env"), at + 1 < words.count { regions.insert(words[at + 1]) }
            if let at = words.firstIndex(of: "--trusted-proxy"), at + 1 < words.count {
                if words[at + 1] != proxyAddress { problems.append("\(name): trusts \(words[at + 1]), but the proxy is at \(proxyAddress ?? "no fixed address")") }
            } else {
                problems.append("\(name): no --trusted-proxy, so every client looks like the proxy to the throttles")
            }
            if let built = Paths.executable("sandbox-host") {
                // The URL from the environment: a placeholder of the same form (the engine fills the password in).
                let dryRun = try DryRuns.run(built, Array(words.dropFirst()) + ["--database", "postgres://sandbox:x@\(dbName):5432/sandbox", "--dry-run"])
                if dryRun.status != 0 { problems.append("\(name): its command is refused: \(dryRun.stderr)") }
            }
            if let config, !config.contains("server \(name):8100") { problems.append("\(proxyName): its nginx.conf does not send to \(name)") }
        }
        if urls.count > 1 { problems.append("the replicas are on different databases: \(urls.sorted().joined(separator: ", "))") }
        if regions.count > 1 { problems.append("the replicas run different regions: \(regions.sorted().joined(separator: ", "))") }
        return problems
    }

    /// Checks one service alone; returns what it resolved to when its command ran.
    private func check(
        _ name: String, _ service: [String: Any], declaredVolumes: Set<String>, problems: inout [String]
    ) throws -> Resolved? {
        if service["build"] == nil && service["image"] == nil {
            problems.append("\(name): neither build nor image")
        }
        guard let command = service["command"] as? [Any], let words = command as? [String], let program = words.first
        else {
            problems.append("\(name): command must be a list of strings whose first item is the executable")
            return nil
        }
        let executableName = URL(fileURLWithPath: program).lastPathComponent
        guard packageExecutables.contains(executableName), program == executableName || program == "/app/bin/\(executableName)"
        else {
            problems.append(
                "\(name): runs '\(program)', which is not one of the package's executables "
                    + "(\(packageExecutables.sorted().joined(separator: ", "))) on the image's PATH")
            return nil
        }
        guard let built = Paths.executable(executableName) else {
            problems.append("\(name): \(executableName) is not built; run `swift build --build-tests`")
            return nil
        }

        // The engine would run exactly this; --dry-run makes it check everything and stop.
        let arguments = Array(words.dropFirst())
        let dryRun = try DryRuns.run(built, arguments + ["--dry-run"])
        guard dryRun.exited, dryRun.status == 0 else {
            problems.append("\(name): `\(words.joined(separator: " ")) --dry-run` \(dryRun)")
            return nil
        }
        guard let configuration = (try? JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8))) as? [String: Any],
            let kind = configuration["service"] as? String, let port = configuration["port"] as? Int,
            let bindAddress = configuration["host"] as? String
        else {
            problems.append("\(name): --dry-run printed no configuration with service, host and port: \(dryRun.stdout)")
            return nil
        }
        var result = Resolved(
            name: name, kind: kind, port: port, bindAddress: bindAddress,
            region: configuration["region"] as? String, environments: configuration["environments"] as? [String: String],
            webhookInbox: configuration["webhookInbox"] as? String, walletURL: configuration["walletURL"] as? String, published: [])

        if bindAddress != "0.0.0.0" {
            problems.append("\(name): binds \(bindAddress); inside a container it must bind --host 0.0.0.0 to be reachable")
        }

        // Listening beyond loopback, each service needs the sandbox control key: one for every
        // service (the portal's clock and reset reach the hosts with it), from the environment, and
        // compose refuses to start without it (`${VAR:?message}`) rather than run control open.
        let key = (service["environment"] as? [String: Any])?[Self.controlKeyVariable] as? String
        if key?.hasPrefix("${\(Self.controlKeyVariable):?") != true {
            problems.append(
                "\(name): \(Self.controlKeyVariable) must come from ${\(Self.controlKeyVariable):?…} in its environment, not \(key ?? "unset")")
        }

        // The others reach it by its service name (http://wallet:8110): that name must be one it
        // accepts in Host, or it answers them 421 host_not_allowed (SiteGate).
        let allowed = ((service["environment"] as? [String: Any])?["SANDBOX_ALLOWED_HOSTS"] as? String ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !allowed.contains(name.lowercased()) {
            problems.append("\(name): SANDBOX_ALLOWED_HOSTS in its environment must list its own name, which the others call it by")
        }

        // Ports: one mapping, the same number outside and inside, equal to what it listens on.
        let ports = (service["ports"] as? [Any]) ?? []
        for entry in ports {
            if let mapping = Self.portMapping(entry) {
                result.published.append(mapping)
            } else {
                problems.append("\(name): cannot read the port mapping \(entry)")
            }
        }
        if result.published.count != 1 {
            problems.append("\(name): publishes \(result.published.count) ports; expected exactly its own \(port)")
        }
        for mapping in result.published where mapping.published != port || mapping.target != port {
            problems.append("\(name): publishes \(mapping.published):\(mapping.target) but listens on \(port)")
        }

        // Healthcheck: curl -f against its own /healthz.
        if let test = Self.healthcheckWords(service["healthcheck"]) {
            let joined = test.joined(separator: " ")
            let failsOnError = test.contains { $0 == "--fail" || ($0.hasPrefix("-") && !$0.hasPrefix("--") && $0.contains("f")) }
            if !joined.contains("curl") || !failsOnError {
                problems.append("\(name): the healthcheck must be `curl -f…` so an error status fails it: \(joined)")
            }
            let urls = test.compactMap { URL(string: $0) }.filter { $0.scheme == "http" }
            if !urls.contains(where: { ["127.0.0.1", "localhost"].contains($0.host ?? "") && $0.port == port && $0.path == "/healthz" }) {
                problems.append("\(name): the healthcheck does not GET http://127.0.0.1:\(port)/healthz: \(joined)")
            }
        } else {
            problems.append("\(name): no healthcheck")
        }

        // Hosts keep their database in a named volume mounted at --data-dir.
        if kind == "sandbox-host" {
            let dataDirectory = Self.value(of: "data-dir", in: arguments)
            let database = configuration["database"] as? String
            let mounts = ((service["volumes"] as? [Any]) ?? []).compactMap(Self.volumeMount)
            if let dataDirectory {
                if let database, URL(fileURLWithPath: database).deletingLastPathComponent().path != URL(fileURLWithPath: dataDirectory).path {
                    problems.append("\(name): the database \(database) is not in --data-dir \(dataDirectory)")
                }
                let mount = mounts.first { $0.target == dataDirectory }
                if let mount {
                    if !declaredVolumes.contains(mount.source) {
                        problems.append("\(name): mounts '\(mount.source)' at \(dataDirectory), which is not a named volume under top-level volumes:")
                    }
                } else {
                    problems.append("\(name): nothing is mounted at --data-dir \(dataDirectory); its database would die with the container")
                }
            } else {
                problems.append("\(name): no --data-dir; the host must keep its database in the volume")
            }
        }
        return result
    }

    /// The variable every service reads its sandbox control key from.
    static let controlKeyVariable = "SANDBOX_CONTROL_KEY"

    /// `"8100:8100"`, `"127.0.0.1:8100:8100"`, `8100` or `{target: 8100, published: 8100}`.
    static func portMapping(_ entry: Any) -> (published: Int, target: Int)? {
        if let long = entry as? [String: Any] {
            guard let target = long["target"] as? Int else { return nil }
            let published = (long["published"] as? Int) ?? (long["published"] as? String).flatMap { Int($0) }
            return published.map { ($0, target) }
        }
        let text = (entry as? String) ?? (entry as? Int).map(String.init) ?? ""
        let parts = text.split(separator: "/").first?.split(separator: ":").map(String.init) ?? []
        guard let targetText = parts.last, let target = Int(targetText) else { return nil }
        guard parts.count >= 2, let published = Int(parts[parts.count - 2]) else { return nil }
        return (published, target)
    }

    /// The words of `healthcheck.test` (`[CMD, curl, …]`, `[CMD-SHELL, "…"]` or a string).
    static func healthcheckWords(_ healthcheck: Any?) -> [String]? {
        guard let healthcheck = healthcheck as? [String: Any], let test = healthcheck["test"] else { return nil }
        if let text = test as? String { return text.split(separator: " ").map(String.init) }
        guard let words = test as? [String], let first = words.first, first != "NONE" else { return nil }
        if first == "CMD-SHELL" { return words.dropFirst().joined(separator: " ").split(separator: " ").map(String.init) }
        return first == "CMD" ? Array(words.dropFirst()) : words
    }

    /// `"sandbox-state:/data"` or `{type: volume, source: sandbox-state, target: /data}`.
    static func volumeMount(_ entry: Any) -> (source: String, target: String)? {
        if let long = entry as? [String: Any] {
            guard let source = long["source"] as? String, let target = long["target"] as? String else { return nil }
            return (source, target)
        }
        let parts = ((entry as? String) ?? "").split(separator: ":").map(String.init)
        return parts.count >= 2 ? (parts[0], parts[1]) : nil
    }

    /// The value of `--name VALUE` or `--name=VALUE` in a command.
    static func value(of name: String, in arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--\(name)", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--\(name)=") { return String(argument.dropFirst(name.count + 3)) }
        }
        return nil
    }
}

/// A deliberate mistake in a copy of the compose file, and the problem the check must report.
struct ComposeMutation: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let expectedProblem: String
    let apply: @Sendable (inout [String: Any]) throws -> Void

    /// The default services (not the team profile's) whose command runs `program`, by name.
    static func services(running program: String, in document: [String: Any]) -> [String] {
        let services = document["services"] as? [String: Any] ?? [:]
        return services.keys.sorted().filter { name in
            guard (services[name] as? [String: Any])?["profiles"] == nil else { return false }
            let command = (services[name] as? [String: Any])?["command"] as? [String]
            return command.map { URL(fileURLWithPath: $0[0]).lastPathComponent } == program
        }
    }

    static func editService(_ document: inout [String: Any], _ name: String, _ edit: (inout [String: Any]) -> Void) {
        var services = document["services"] as! [String: Any]
        var service = services[name] as! [String: Any]
        edit(&service)
        services[name] = service
        document["services"] = services
    }

    static func editCommand(_ document: inout [String: Any], _ name: String, _ edit: (inout [String]) -> Void) {
        editService(&document, name) { service in
            var command = service["command"] as! [String]
            edit(&command)
            service["command"] = command
        }
    }

    static let all: [ComposeMutation] = [
        ComposeMutation(testDescription: "a replica that trusts another proxy", expectedProblem: "trusts 10.9.9.9, but the proxy is at") {
            document in
            editCommand(&document, "team-eu-2") { command in command = command.map { $0 == "172.28.0.10" ? "10.9.9.9" : $0 } }
        },
        ComposeMutation(testDescription: "replicas on two databases", expectedProblem: "the replicas are on different databases") { document in
            editService(&document, "team-eu-2") { service in
                var environment = service["environment"] as? [String: Any] ?? [:]
                environment["SANDBOX_DATABASE"] = "postgres://sandbox:x@team-db:5432/other"
                service["environment"] = environment
            }
        },
        ComposeMutation(testDescription: "a replica the proxy does not know", expectedProblem: "its nginx.conf does not send to team-eu-3") {
            document in
            var services = document["services"] as! [String: Any]
            services["team-eu-3"] = services["team-eu-2"]
            document["services"] = services
        },
        ComposeMutation(testDescription: "a misspelled flag", expectedProblem: "unknown option '--flavor'") { document in
            let host = try #require(services(running: "sandbox-host", in: document).first)
            editCommand(&document, host) { command in
                command = command.map { $0 == "--flavour" ? "--flavor" : $0 }
                if !command.contains("--flavor") { command += ["--flavor", "sandbox"] }
            }
        },
        ComposeMutation(testDescription: "a service without the control key", expectedProblem: "SANDBOX_CONTROL_KEY must come from") {
            document in
            let wallet = try #require(services(running: "wallet-sim", in: document).first)
            editService(&document, wallet) { $0["environment"] = ["SANDBOX_CONTROL_KEY": "fixed-key-for-everyone"] }
        },
        ComposeMutation(testDescription: "a service that refuses the name the others call it by", expectedProblem: "SANDBOX_ALLOWED_HOSTS in its environment must list its own name") {
            document in
            let wallet = try #require(services(running: "wallet-sim", in: document).first)
            editService(&document, wallet) { service in
                var environment = service["environment"] as? [String: Any] ?? [:]
                environment["SANDBOX_ALLOWED_HOSTS"] = "eu,anz"
                service["environment"] = environment
            }
        },
        ComposeMutation(testDescription: "two services on one port", expectedProblem: "published port 8100 is used by") {
            document in
            let hosts = services(running: "sandbox-host", in: document)
            try #require(hosts.count >= 2)
            // The second host moved onto the first one's port, inside and out.
            editCommand(&document, hosts[1]) { command in
                if let index = command.firstIndex(of: "--port") { command[index + 1] = "8100" }
            }
            editService(&document, hosts[1]) { $0["ports"] = ["8100:8100"] }
        },
        ComposeMutation(testDescription: "a region without a host", expectedProblem: "no service runs the MBANK host") {
            document in
            let mbank = try #require(
                services(running: "sandbox-host", in: document).first { name in
                    let services = document["services"] as! [String: Any]
                    return ((services[name] as! [String: Any])["command"] as! [String]).contains("MBANK")
                })
            var services = document["services"] as! [String: Any]
            services[mbank] = nil
            document["services"] = services
        },
        ComposeMutation(testDescription: "a published port that is not the one listened on", expectedProblem: "but listens on") {
            document in
            let wallet = try #require(services(running: "wallet-sim", in: document).first)
            editService(&document, wallet) { $0["ports"] = ["8110:8111"] }
        },
        ComposeMutation(testDescription: "a healthcheck on another port", expectedProblem: "the healthcheck does not GET") {
            document in
            let portal = try #require(services(running: "portal-sim", in: document).first)
            editService(&document, portal) { service in
                service["healthcheck"] = ["test": ["CMD", "curl", "-fsS", "http://127.0.0.1:8100/healthz"]]
            }
        },
        ComposeMutation(testDescription: "a host bound to loopback", expectedProblem: "must bind --host 0.0.0.0") { document in
            let host = try #require(services(running: "sandbox-host", in: document).last)
            editCommand(&document, host) { command in
                if let index = command.firstIndex(of: "--host") { command[index + 1] = "127.0.0.1" }
            }
        },
        ComposeMutation(testDescription: "a volume not declared", expectedProblem: "not a named volume under top-level volumes")
        { document in
            document["volumes"] = [String: Any]()
        },
        ComposeMutation(testDescription: "a test tool as a service", expectedProblem: "not one of the package's executables") {
            document in
            let wallet = try #require(services(running: "wallet-sim", in: document).first)
            editCommand(&document, wallet) { $0[0] = "store-crash-writer" }
        },
        ComposeMutation(testDescription: "no webhook inbox", expectedProblem: "expected one webhook-inbox service, found 0") {
            document in
            let inboxes = services(running: "webhook-inbox", in: document)
            try #require(!inboxes.isEmpty)
            var remaining = document["services"] as! [String: Any]
            for name in inboxes { remaining[name] = nil }
            document["services"] = remaining
        },
        ComposeMutation(testDescription: "a host that sends its webhooks nowhere", expectedProblem: "--webhook-inbox is not set") {
            document in
            let host = try #require(services(running: "sandbox-host", in: document).first)
            editCommand(&document, host) { command in
                if let index = command.firstIndex(of: "--webhook-inbox") { command.removeSubrange(index...index + 1) }
            }
        },
        ComposeMutation(testDescription: "a host that calls no wallet", expectedProblem: "--wallet-url is not set") {
            document in
            let host = try #require(services(running: "sandbox-host", in: document).first)
            editCommand(&document, host) { command in
                if let index = command.firstIndex(of: "--wallet-url") { command.removeSubrange(index...index + 1) }
            }
        },
        ComposeMutation(
            testDescription: "a host sending to the inbox at localhost", expectedProblem: "--webhook-inbox is http://localhost:8111"
        ) { document in
            let host = try #require(services(running: "sandbox-host", in: document).last)
            editCommand(&document, host) { command in
                command = command.map { $0 == "http://webhooks:8111" ? "http://localhost:8111" : $0 }
            }
        },
        ComposeMutation(testDescription: "the portal calling a host at localhost", expectedProblem: "--environments has EU=") {
            document in
            let portal = try #require(services(running: "portal-sim", in: document).first)
            editCommand(&document, portal) { command in
                command = command.map { $0.replacingOccurrences(of: "EU=http://eu:8100", with: "EU=http://localhost:8100") }
            }
        },
    ]
}
