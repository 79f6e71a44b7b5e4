import Foundation
import SandboxHTTP
import SandboxTestSupport
import Testing

/// Sandbox control on a shared machine: `sandbox up --host 0.0.0.0` makes a control key, says so
/// loudly with the address others reach, writes both to `endpoints.json`, and every service (the
/// portal's relays too) refuses control without the key; reading the clock stays open. The
/// portal's back office needs the key too.
@Suite("sandbox control beyond loopback", .serialized, .blocksThreads)
struct SandboxControlTests {
    @Test("listening on 0.0.0.0: the key is printed and in endpoints.json, the URLs name this machine's address, control needs the key")
    func controlNeedsTheKeyBeyondLoopback() throws {
        let data = TemporaryDirectory()
        let (sandbox, base) = try startSandboxUp(dataDirectory: data.url, arguments: ["--host", "0.0.0.0"])
        defer {
            sandbox.signal(SIGTERM)
            _ = sandbox.finish(within: 10)
        }
        #expect(sandbox.waitForOutput("X-Sandbox-Control-Key: ctl_", seconds: 10), "\(sandbox.stdout)")
        #expect(sandbox.stdout.contains("WARNING: listening on 0.0.0.0, reachable from other machines"), "\(sandbox.stdout)")

        let endpoints = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: data.file("endpoints.json"))) as? [String: Any])
        let key = try #require(endpoints["controlKey"] as? String, "\(endpoints)")
        #expect(sandbox.stdout.contains("X-Sandbox-Control-Key: \(key)"), "the printed key is the file's")
        let address = ListenAddress.reachable("0.0.0.0")
        #expect(address != "0.0.0.0")
        let environments = try #require(endpoints["environments"] as? [String: String])
        let eu = try #require(environments["EU"])
        #expect(eu == "http://\(address):\(base)", "\(endpoints)")
        #expect(sandbox.stdout.contains("http://\(address):\(base)"), "the table names the same address")
        let portal = try #require(endpoints["portal"] as? String)
        let wallet = try #require(endpoints["wallet"] as? String)

        let move = #"{"advanceSeconds":60}"#
        let refused = try fetch("POST", eu + "/_sandbox/clock", body: move)
        #expect(refused.status == 401 && refused.json?[path: "error", "code"] as? String == "control_key_required", "\(refused)")
        let wrong = try fetch("POST", eu + "/_sandbox/clock", headers: [ControlGate.header: key + "x"], body: move)
        #expect(wrong.status == 401, "\(wrong)")
        let moved = try fetch("POST", eu + "/_sandbox/clock", headers: [ControlGate.header: key], body: move)
        #expect(moved.status == 200 && moved.json?["skewSeconds"] as? Double == 60, "\(moved)")
        #expect(try get(eu + "/_sandbox/clock").status == 200, "reading the clock needs no key")
        for path in ["/_sandbox/reset", "/_sandbox/faults"] {
            #expect(try fetch("POST", eu + path, body: "{}").status == 401, "\(path)")
        }

        // The wallet's control, and the portal's relays of the hosts' (it passes its key on).
        #expect(try fetch("POST", wallet + "/_sandbox/reset").status == 401)
        #expect(try fetch("POST", wallet + "/_sandbox/reset", headers: [ControlGate.header: key]).status == 204)
        #expect(try fetch("POST", portal + "/api/sandbox/reset").status == 401, "the whole sandbox's reset needs the key too")
        #expect(try fetch("POST", portal + "/api/sandbox/reset", headers: [ControlGate.header: key]).status == 204)
        let relayed = try fetch("POST", portal + "/api/regions/EU/reset")
        #expect(relayed.status == 401 && relayed.json?[path: "error", "code"] as? String == "control_key_required", "\(relayed)")
        #expect(try fetch("POST", portal + "/api/regions/EU/reset", headers: [ControlGate.header: key]).status == 204)

        // Beyond loopback the portal's back office is not open either: a merchant's webhook secret,
        // the request journal, registration tokens and the clock need the key; the region list does not.
        for (method, path) in [
            ("GET", "/api/regions/EU/merchants/EU-M01/webhook"), ("GET", "/api/regions/EU/requests"), ("GET", "/api/regions/EU/clock"),
            ("GET", "/api/regions/EU/transactions"), ("GET", "/api/sandbox/snapshots"),
        ] {
            let open = try fetch(method, portal + path)
            #expect(open.status == 401 && open.json?[path: "error", "code"] as? String == "control_key_required", "\(path): \(open)")
            #expect(try fetch(method, portal + path, headers: [ControlGate.header: key]).status == 200, "\(path)")
        }
        let token = try fetch("POST", portal + "/api/regions/EU/registration-tokens", body: #"{"terminalId":"EU-T0105"}"#)
        #expect(token.status == 401, "\(token)")
        #expect(try get(portal + "/api/environments").status == 200, "the pages' region picker reads the regions without it")

        // The QR a device shows names the wallet at this machine's address, which a phone reaches.
        let work = data.file("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let tapsimExecutable = try builtExecutable("tapsim")
        func tapsim(_ arguments: String...) throws -> ProcessOutput {
            try SpawnedProcess.run(
                tapsimExecutable, ["--endpoints", data.file("endpoints.json").path, "--sandbox-data", Paths.sandboxData.path] + arguments,
                in: work, timeout: 60)
        }
        try #require(try tapsim("register", "quick", "--pin", "2468", "--terminal", "EU-T0101").status == 0)
        try #require(try tapsim("login", "--pin", "2468").status == 0)
        let shown = try tapsim("--json", "qr", "pay", "--amount", "1250", "--no-wait")
        let qr = try #require(shown.json?["qrCode"] as? String, "\(shown)")
        #expect(wallet.hasPrefix("http://\(address):") && qr.hasPrefix(wallet + "/pay/"), "\(qr)")

        // `webhooks trigger` finds the key in endpoints.json; a wrong one given is refused.
        let webhooks = try builtExecutable("webhooks")
        let common = ["trigger", "--event", "payment.succeeded", "--endpoints", data.file("endpoints.json").path]
        let triggered = try run(webhooks, common, seconds: 30)
        #expect(triggered.status == 0 && triggered.stdout.hasPrefix("evt_"), "\(triggered)")
        let refusedTrigger = try run(webhooks, common + ["--control-key", "not-the-key-0000000"], seconds: 30)
        #expect(refusedTrigger.status != 0 && refusedTrigger.stderr.contains("control_key_required"), "\(refusedTrigger)")
    }

    @Test("a key given on loopback is required there too; on loopback without one, control is open")
    func anExplicitKeyOnLoopback() throws {
        let data = TemporaryDirectory()
        let key = "team-key-0123456789abcdef"
        let (sandbox, base) = try startSandboxUp(dataDirectory: data.url, arguments: ["--control-key", key])
        defer {
            sandbox.signal(SIGTERM)
            _ = sandbox.finish(within: 10)
        }
        let host = "http://127.0.0.1:\(base)"
        #expect(!sandbox.stdout.contains("WARNING"), "loopback is not reachable from other machines: \(sandbox.stdout)")
        #expect(try fetch("POST", host + "/_sandbox/reset").status == 401)
        #expect(try fetch("POST", host + "/_sandbox/reset", headers: [ControlGate.header: key]).status == 204)

        let open = TemporaryDirectory()
        let (plain, plainBase) = try startSandboxUp(dataDirectory: open.url)
        defer {
            plain.signal(SIGTERM)
            _ = plain.finish(within: 10)
        }
        #expect(try fetch("POST", "http://127.0.0.1:\(plainBase)/_sandbox/reset").status == 204)
        let endpoints = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: open.file("endpoints.json"))) as? [String: Any])
        #expect(endpoints["controlKey"] == nil, "no key, none written: \(endpoints)")
    }

    @Test("a control key too short or with other characters is a usage error")
    func aWeakKeyIsRefused() throws {
        let sandbox = try builtExecutable("sandbox")
        for key in ["short", "has spaces in it 0123456789", "ünïcode-0123456789abc"] {
            let result = try run(sandbox, ["up", "--control-key", key, "--dry-run"])
            #expect(result.status == 2 && result.stderr.contains("16 to 200 letters"), "\(key): \(result)")
        }
    }

    /// docs/running.md's "Sandbox control on a shared machine" block, run as written in the checkout (on
    /// free ports, in a folder of its own).
    @Test("docs/running.md's control-key example runs as written and answers what its comments say", .timeLimit(.minutes(2)))
    func readmeExampleRuns() throws {
        let readme = try String(contentsOf: Paths.repository.appendingPathComponent("docs/running.md"), encoding: .utf8)
        let heading = try #require(readme.range(of: "## Sandbox control on a shared machine\n"))
        let start = try #require(readme.range(of: "```sh\n", range: heading.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let folder = TemporaryDirectory()
        let block = String(readme[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "9500", with: String(try freeConsecutivePorts(RegionFacts.all.count + 3)))
            .replacingOccurrences(of: "/tmp/control-demo", with: folder.file("demo").path)
        let text = try runExample(block, in: Paths.repository, scratch: folder)
        let answers = text.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(answers.count == 2 && answers[0].contains("control_key_required") && answers[1].contains(#""skewSeconds":60"#), "\(text)")
    }

    /// docs/ios.md's "On an iPhone" commands, run as written from a checkout whose `make run` listens
    /// on every interface (`sandbox up --host 0.0.0.0`, as `make run ARGS="--host 0.0.0.0"` starts it).
    @Test("docs/ios.md's iPhone commands run as written: the EU host's network address, then the clock moved with the control key", .timeLimit(.minutes(2)))
    func iosDocExampleRuns() throws {
        let doc = try String(contentsOf: Paths.repository.appendingPathComponent("docs/ios.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "## On an iPhone"))
        var blocks: [String] = []
        var cursor = section.upperBound
        while let start = doc.range(of: "```sh\n", range: cursor..<doc.endIndex), start.lowerBound < (doc.range(of: "\n## ", range: section.upperBound..<doc.endIndex)?.lowerBound ?? doc.endIndex) {
            let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
            blocks.append(String(doc[start.upperBound..<end.lowerBound]))
            cursor = end.upperBound
        }
        try #require(blocks.count == 3 && blocks[0] == #"make run ARGS="--host 0.0.0.0""#, "\(blocks)")
        let checkout = TemporaryDirectory()
        let script = """
            sandbox up --host 0.0.0.0 --base-port \(try freeConsecutivePorts(RegionFacts.all.count + 3)) &
            until [ -s .sandbox/endpoints.json ]; do sleep 0.2; done
            \(blocks[1])
            \(blocks[2])
            kill %1
            wait
            """
        // The folder plays a checkout of its own; the sandbox's data comes from this one.
        let text = try runExample(script, in: checkout.url, scratch: checkout, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("http://") || $0.hasPrefix("{") }
        let address = ListenAddress.reachable("0.0.0.0")
        #expect(lines.count == 2 && lines[0].hasPrefix("http://\(address):") && lines[1].contains(#""skewSeconds":60"#), "\(text)")
    }
}
