import Foundation
import SandboxTestSupport
import Testing

/// What a new user met when trying the sandbox (issue #12), run with the real `tapsim`.
@Suite("tapsim: fixes found by trying the sandbox as a new user would", .blocksThreads)
struct NewUserTests {
    /// A token for `terminal` from the region's back office.
    static func token(_ sandbox: SandboxUnderTest, _ region: String, _ terminal: String) throws -> String {
        let issued = try request(
            "POST", try sandbox.host(region) + "/backoffice/v1/registration-tokens", bearer: try backOfficeKey(region),
            body: #"{"terminalId":"\#(terminal)"}"#)
        try #require(issued.status == 201, "\(issued)")
        return try #require(issued.json?["registrationToken"] as? String)
    }

    @Test("register token without --pin on a PIN terminal stops before begin; the token then still registers")
    func tokenAsksForThePinFirst() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        let token = try Self.token(sandbox, "EU", "EU-T0203")
        let missing = try sandbox.tapsim("register", "token", "--token", token)
        #expect(missing.status == 12, "\(missing)")
        #expect(missing.stdout.contains("Verifying the token") && !missing.stdout.contains("Beginning"), "\(missing)")
        #expect(missing.stderr.contains("registration.pinRequired [pin_required]"), "\(missing)")
        #expect(missing.stderr.contains("--pin PIN") && missing.stderr.contains("EU-T0203"), "\(missing)")
        #expect(try backOfficeTerminals(sandbox, "EU")["EU-T0203"] == false)

        let registered = try sandbox.tapsim("--json", "register", "token", "--token", token, "--pin", "2468")
        #expect(registered.status == 0, "\(registered)")
        #expect(registered.json?["terminalId"] as? String == "EU-T0203", "\(registered)")

        // A used token is reported with the host's own reason.
        let used = try sandbox.tapsim("--device", "other", "--json", "register", "token", "--token", token, "--pin", "2468")
        #expect(used.status == 12, "\(used)")
        #expect(used.json?[path: "error", "code"] as? String == "registration_token_used", "\(used)")
        #expect(used.json?[path: "error", "message"] as? String == "The registration token was already used.", "\(used)")
    }

    @Test("register quick without sandbox-data says where it looked, before the host spends a challenge code")
    func quickFindsItsDataFirst() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        // A tapsim outside any checkout (copied, not linked), without --sandbox-data or TAPSANDBOX_HOME.
        let lone = TemporaryDirectory()
        let bin = lone.file("opt/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("tapsim")
        try FileManager.default.copyItem(at: try tapsimExecutable(), to: copy)
        let result = try run(copy, ["--endpoints", sandbox.endpoints.path, "register", "quick", "--pin", "2468"], in: lone.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("cannot find the 'sandbox-data' folder; looked in:"), "\(result)")
        let opt = bin.resolvingSymlinksInPath().deletingLastPathComponent()
        for place in ["bin/sandbox-data", "sandbox-data", "share/tapsandbox/sandbox-data"] {
            #expect(result.stderr.contains(opt.appendingPathComponent(place).path + "\n"), "\(place): \(result)")
        }
        #expect(result.stderr.contains("Pass --sandbox-data DIR, or set TAPSANDBOX_HOME"), "\(result)")
        #expect(!result.stdout.contains("Challenge code"), "\(result)")
        // The host began no registration.
        let journal = try request(
            "GET", try sandbox.host("EU") + "/backoffice/v1/requests?surface=terminal", bearer: try backOfficeKey("EU"))
        let paths = (journal.json?["requests"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(journal.status == 200 && !paths.contains("/terminal/v1/registrations"), "\(journal)")

        // TAPSANDBOX_HOME is the way to point such a copy at the data.
        let home = try run(
            copy, ["--endpoints", sandbox.endpoints.path, "--json", "register", "quick", "--pin", "2468"], in: lone.url,
            environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        #expect(home.status == 0, "\(home)")
    }

    @Test("pin_required while registering exits with the registration code, 12")
    func pinRequiredIsRegistration() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        let begun = try sandbox.tapsim("--field", "challengeCode", "register", "begin")
        try #require(begun.status == 0, "\(begun)")
        let confirmed = try sandbox.tapsim("--field", "backofficeCode", "register", "confirm", "--terminal", "EU-T0203")
        try #require(confirmed.status == 0, "\(confirmed)")
        let code = confirmed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code.hasPrefix("EU-") && !code.contains(" "), "--field prints the value alone: \(confirmed)")
        let ended = try sandbox.tapsim("--json", "register", "end", "--backoffice-code", code)
        #expect(ended.status == 12, "\(ended)")
        #expect(ended.json?[path: "error", "category"] as? String == "registration", "\(ended)")
        #expect(ended.json?[path: "error", "code"] as? String == "pin_required", "\(ended)")
        // Nothing was spent: the same code registers once the PIN is given.
        #expect(try sandbox.tapsim("register", "end", "--backoffice-code", code, "--pin", "2468").status == 0)
    }

    @Test("register quick takes the first free terminal that allows portal registration, as its help says")
    func quickTakesTheFirstPortalTerminal() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        // The README tour's curl registration takes EU-T0101 first.
        let first = try sandbox.tapsim("--device", "tour", "--json", "register", "quick", "--pin", "2468")
        #expect(first.json?["terminalId"] as? String == "EU-T0101", "\(first)")
        let second = try sandbox.tapsim("--json", "register", "quick", "--pin", "2468")
        #expect(second.status == 0, "\(second)")
        // EU-T0102 allows registration tokens only; EU-T0103 is the next that allows the portal.
        #expect(second.json?["terminalId"] as? String == "EU-T0103", "\(second)")
    }

    @Test("terminal-info shows the reference pattern, the terminal code and auto-login")
    func terminalInfoLines() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        #expect(try sandbox.tapsim("register", "quick", "--pin", "2468", "--terminal", "EU-T0201").status == 0)
        #expect(try sandbox.tapsim("login", "--pin", "2468").status == 0)
        let info = try sandbox.tapsim("terminal-info")
        #expect(info.status == 0, "\(info)")
        #expect(info.stdout.contains("reference    asked for, must match ^INV-[0-9]{6}$"), "\(info)")
        #expect(info.stdout.contains("code         2359"), "\(info)")
        #expect(info.stdout.contains("auto-login   no"), "\(info)")
    }

    @Test("a date alone in --to is the end of that day, for history, count and stats")
    func wholeDays() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try OutcomeTests.readyDevice(sandbox)
        let sale = try sandbox.tapsim("--json", "pay", "--amount", "1250")
        try #require(sale.status == 0, "\(sale)")
        let date = try #require(sale.json?[path: "transaction", "transactionDate"] as? String, "\(sale)")
        let day = String(date.prefix(10))
        let history = try sandbox.tapsim("--json", "history", "--from", day, "--to", day)
        #expect((history.json?[path: "history", "items"] as? [Any])?.count == 1, "\(history)")
        let count = try sandbox.tapsim("--json", "count", "--from", day, "--to", day)
        #expect(count.json?["count"] as? Int == 1, "\(count)")
        let stats = try sandbox.tapsim("--json", "stats", "--from", day, "--to", day)
        let groups = try #require(stats.json?["statistics"] as? [[String: Any]], "\(stats)")
        #expect(groups.count == 1 && groups.first?["description"] as? String == day, "\(stats)")
        // The day before holds nothing.
        let before = dayBefore(day)
        #expect(try sandbox.tapsim("--json", "count", "--from", before, "--to", before).json?["count"] as? Int == 0)
    }

    @Test("logout once the session expired succeeds and says the session had ended")
    func logoutAfterExpiry() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        #expect(try sandbox.tapsim("register", "quick", "--pin", "2468").status == 0)
        #expect(try sandbox.tapsim("login", "--pin", "2468").status == 0)
        let moved = try request("POST", try sandbox.host("EU") + "/_sandbox/clock", body: #"{"advanceSeconds":601}"#)
        #expect(moved.status == 200, "\(moved)")
        let logout = try sandbox.tapsim("logout")
        #expect(logout.status == 0, "\(logout)")
        #expect(logout.stdout.contains("The session had already ended"), "\(logout)")
        let again = try sandbox.tapsim("logout")
        #expect(again.status == 0 && again.stdout.contains("Not logged in: nothing to end."), "\(again)")
    }

    @Test("errors name the tapsim command to run, not the SDK call")
    func messagesSpeakTapsim() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        #expect(try sandbox.tapsim("register", "quick", "--pin", "2468").status == 0)
        let early = try sandbox.tapsim("pay", "--amount", "1250")
        #expect(early.status == 13, "\(early)")
        #expect(early.stderr.contains("run 'tapsim login --pin PIN' first"), "\(early)")
        #expect(!early.stderr.contains("doLogin"), "\(early)")
        #expect(try sandbox.tapsim("login", "--pin", "2468").status == 0)
        let unprepared = try sandbox.tapsim("pay", "--amount", "1250")
        #expect(unprepared.status == 11 && unprepared.stderr.contains("run 'tapsim prepare' first"), "\(unprepared)")
    }

    @Test("a refusal before the card (tips_not_allowed, refund_over_amount) prints no card reader line")
    func noCardLineBeforeARefusal() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try OutcomeTests.readyDevice(sandbox, terminal: "EU-T0203")   // no tips
        let tipped = try sandbox.tapsim("pay", "--amount", "1250", "--tip", "100")
        #expect(tipped.status == 14 && tipped.stderr.contains("tips_not_allowed"), "\(tipped)")
        #expect(!tipped.stdout.contains("Card reader shown"), "\(tipped)")
        let sale = try sandbox.tapsim("--field", "transaction.transactionId", "pay", "--amount", "1250")
        let id = sale.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try sandbox.tapsim("pay", "--amount", "800").status == 0)
        let over = try sandbox.tapsim("refund", "--transaction", id, "--amount", "9999")
        #expect(over.status == 14 && over.stderr.contains("refund_over_amount"), "\(over)")
        #expect(!over.stdout.contains("Card reader shown"), "\(over)")
        let refund = try sandbox.tapsim("refund", "--transaction", id, "--amount", "1250")
        #expect(refund.status == 0 && refund.stdout.contains("Card reader shown"), "\(refund)")
    }

    @Test("--flavour that differs from the host's is a warning on standard error")
    func flavourWarning() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        let prod = try sandbox.tapsim("--flavour", "prod", "status")
        #expect(prod.status == 0, "\(prod)")
        #expect(prod.stderr.contains("warning: --flavour prod asks for prodEU, but the EU host at"), "\(prod)")
        #expect(prod.stderr.contains("runs the sandbox flavour"), "\(prod)")
        let same = try sandbox.tapsim("status")
        #expect(same.status == 0 && same.stderr.isEmpty, "\(same)")
    }

    @Test("--dry-run prints the resolved configuration and contacts nothing")
    func dryRun() throws {
        let folder = TemporaryDirectory()
        // Nobody listens on port 9: any request would fail.
        let endpoints = folder.file("endpoints.json")
        try Data(#"{"environments":{"EU":"http://127.0.0.1:9","MBANK":"http://127.0.0.1:9"}}"#.utf8).write(to: endpoints)
        let result = try run(
            try tapsimExecutable(),
            ["--endpoints", endpoints.path, "--dry-run", "--env", "mbank", "pay", "--amount", "1250", "--card", "mc"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        let object = try #require(result.json, "\(result)")
        #expect(object["dryRun"] as? Bool == true && object["command"] as? String == "pay")
        #expect(object["region"] as? String == "MBANK" && object["environment"] as? String == "sandboxMBANK", "\(result)")
        #expect(object["host"] as? String == "http://127.0.0.1:9", "\(result)")
        #expect(object[path: "options", "amount"] as? String == "1250" && object[path: "options", "card"] as? String == "mc", "\(result)")
        let device = try #require(object["deviceDirectory"] as? String)
        // Beside the endpoints.json named, not in the working folder's .sandbox/.
        #expect(device == folder.file("devices/MBANK").path, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: device), "a dry run makes no device folder")
        #expect(object["endpointsProblem"] is NSNull, "\(result)")
        // An option the command does not take is still a usage error.
        let wrong = try run(try tapsimExecutable(), ["--endpoints", endpoints.path, "--dry-run", "pay", "--amout", "1"], in: folder.url)
        #expect(wrong.status == 2 && wrong.stderr.contains("unknown option '--amout'"), "\(wrong)")

        // No sandbox running here at all: the dry run still prints what the SDK would use (sandbox up's
        // default ports) and says why no endpoints.json was read.
        let bare = try run(try tapsimExecutable(), ["--dry-run", "status"], in: folder.url)
        #expect(bare.status == 0, "\(bare)")
        let shown = try #require(bare.json, "\(bare)")
        #expect(shown["host"] as? String == "http://127.0.0.1:8100", "\(bare)")
        #expect((shown["endpointsProblem"] as? String)?.contains("the sandbox is not running here") == true, "\(bare)")
    }

    @Test("the device folder's files are owner-only")
    func ownerOnlyFiles() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        #expect(try sandbox.tapsim("register", "quick", "--pin", "2468").status == 0)
        #expect(try sandbox.tapsim("login", "--pin", "2468").status == 0)
        let folder = sandbox.devices.appendingPathComponent("EU")
        for name in ["device.json", "tapsim.json"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o600, "\(name) mode \(String(mode, radix: 8))")
        }
        let device = try String(contentsOf: folder.appendingPathComponent("device.json"), encoding: .utf8)
        #expect(device.contains("deviceSecret") && device.contains("token"), "device.json holds the secret and the session token")
        let tapsim = try String(contentsOf: folder.appendingPathComponent("tapsim.json"), encoding: .utf8)
        #expect(!tapsim.contains("2468") && !tapsim.contains("token"), "tapsim.json holds no secure code or token: \(tapsim)")
    }
}

/// `2026-12-01` → `2026-11-30`.
func dayBefore(_ day: String) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.string(from: formatter.date(from: day)!.addingTimeInterval(-86_400))
}
