import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// The portal's "Sandbox", "Mailbox" and registration-token pages, used as a tester does.
@Suite(.serialized, .blocksThreads) struct PortalSandboxPageTests {
    static let available = BrowserPerson.isAvailable

    /// The text a real scanner (zbarimg) reads from a PNG.
    static func scan(_ file: URL) throws -> String {
        let zbarimg = try #require(onPath("zbarimg"), "zbarimg (zbar-tools) is missing: run scripts/setup")
        let output = try SpawnedProcess.run(zbarimg, ["--quiet", "--raw", file.path])
        try #require(output.status == 0, "\(output)")
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func advancingTheClockFromThePageEndsTheSession() throws {
        let bench = try PortalBench()
        _ = try bench.tapsim("register quick", "--pin", "1234")
        _ = try bench.tapsim("login", "--pin", "1234")
        try #require(try bench.tapsim("status")["loggedIn"] as? Bool == true)
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .read("#clock-skew"), .click("10 min"),
            .waitText("#clock-message", contains: "ahead"), .waitText("#clock-note", contains: "10 min ahead of real time"),
            .inViewport("#clock-message"), .read("#clock-skew"), .fill("Seconds", "soon"),
            .click("Advance"), .read("#clock-message"), .inViewport("#clock-message"),
        ])
        #expect(seen[0] as? String == "0 s (real time)", "\(seen)")
        #expect(seen[1] as? Bool == true, "the clock's feedback shows beside its buttons: \(seen)")
        #expect((seen[2] as? String)?.hasPrefix("10 min") == true, "\(seen)")
        #expect(seen[3] as? String == "Seconds must be a number, such as 600.", "\(seen)")
        #expect(seen[4] as? Bool == true, "the error shows beside the field: \(seen)")
        #expect(try bench.tapsim("status")["loggedIn"] as? Bool == false)
        // Back to real time: the ten minutes of the session have not passed in real time, so it is valid again.
        let back = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .click("Back to real time"),
            .waitText("#clock-message", contains: "real time"), .read("#clock-skew"),
        ])
        #expect(back.first as? String == "0 s (real time)", "\(back)")
        #expect(bench.running.sandbox.clocks["EU"]?.skew == 0)
        #expect(try bench.tapsim("status")["loggedIn"] as? Bool == true)
    }

    @Test(
        "the whole sandbox from the page: a snapshot saved, the clock moved, the snapshot restored; a bad name refused in place; everything reset",
        .enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func snapshotsAndResetFromThePage() throws {
        let bench = try PortalBench()
        let services = bench.running.sandbox.hosts.count + 2
        let shown = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"),
            .fill("Snapshot name", "before-checkout"), .click("Save snapshot"), .waitText("#whole-message", contains: "Saved"),
            .read("#whole-message"), .inViewport("#whole-message"), .waitText("#snapshots tbody", contains: "before-checkout"),
            .read("#snapshots tbody"), .click("10 min"), .waitText("#clock-message", contains: "ahead"), .read("#clock-skew"),
            .clickIn("#snapshots tbody tr", name: "Restore"), .waitText("#whole-message", contains: "Restored"), .read("#whole-message"),
            .inViewport("#whole-message"), .waitText("#clock-skew", contains: "real time"), .read("#clock-skew"),
            .fill("Snapshot name", "../etc"), .click("Save snapshot"), .waitText("#whole-message", contains: "letters"),
            .inViewport("#whole-message"),
        ])
        #expect(shown.compactMap { $0 as? Bool } == [true, true, true], "each answer shows beside the snapshot's buttons: \(shown)")
        let seen = shown.filter { !($0 is Bool) }
        #expect(seen[0] as? String == "Saved snapshot before-checkout of \(services) services.", "\(seen)")
        #expect((seen[1] as? String)?.contains("\(services) of \(services)") == true, "\(seen)")
        #expect((seen[2] as? String)?.hasPrefix("10 min") == true, "\(seen)")
        #expect(seen[3] as? String == "Restored snapshot before-checkout on \(services) services.", "\(seen)")
        #expect(seen[4] as? String == "0 s (real time)", "the clock as saved: \(seen)")
        #expect(bench.running.sandbox.clocks["EU"]?.skew == 0)

        // Reset everything: the inbox is emptied with the regions.
        let inbox = Service(name: "webhooks", baseURL: bench.running.sandbox.inbox.url)
        let eu = Service(name: "EU", baseURL: try bench.running.url(of: "EU"))
        _ = eu.call("POST", "/_sandbox/webhooks/trigger", body: ["event": "payment.succeeded"])
        #expect(eventuallyBlocking { (inbox.call("GET", "/api/events").array("events") ?? []).count == 1 }, "the sample webhook arrives")
        let answered = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .acceptDialog, .click("Reset everything"),
            .waitText("#whole-message", contains: "fixtures"), .read("#whole-message"),
            .inViewport("#whole-message"),
            .clickIn("#snapshots tbody tr", name: "Delete"), .waitText("#whole-message", contains: "Deleted"), .readAll("#snapshots tbody tr"),
            .inViewport("#whole-message"),
        ])
        #expect(answered[1] as? Bool == true && answered[3] as? Bool == true, "\(answered)")
        let reset = answered.filter { !($0 is Bool) }
        #expect(reset[0] as? String == "Every region, the wallet and the webhook inbox are back to their fixtures.", "\(reset)")
        #expect((reset[1] as? [String])?.isEmpty == true, "no snapshot left: \(reset)")
        #expect(inbox.call("GET", "/api/events").array("events")?.isEmpty == true)
    }

    @Test(
        "behind a control key, the clock moves only once the key is typed on the page, and the tab keeps it",
        .enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func theControlKeyIsTypedOnThePage() throws {
        let key = "ctl_0123456789abcdef0123456789abcdef"
        let bench = try PortalBench(controlKey: key)
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .click("10 min"), .waitText("#clock-message", contains: "control key"),
            .read("#clock-message"),
            .fill("Control key", "ctl_wrong"), .click("Use key"), .inViewport("#key-message"), .click("10 min"), .waitText("#clock-message", contains: "wrong"),
            .fill("Control key", key), .click("Use key"), .click("10 min"), .waitText("#clock-message", contains: "ahead"), .read("#clock-skew"),
            .goto(bench.portal + "/sandbox.html"), .readValue("Control key"),
        ])
        #expect((seen[0] as? String)?.contains("type it under Control key on the Sandbox page") == true, "\(seen)")
        #expect(seen[1] as? Bool == true, "the key's answer shows beside it: \(seen)")
        #expect((seen[2] as? String)?.hasPrefix("10 min") == true, "\(seen)")
        #expect(seen[3] as? String == key, "the tab keeps the key: \(seen)")
        #expect(bench.running.sandbox.clocks["EU"]?.skew == 600, "the two refused moves moved nothing")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func resetAsksFirstAndThenForgetsTheDevice() throws {
        let bench = try PortalBench()
        _ = try bench.tapsim("register quick", "--pin", "1234")
        // Cancelled, nothing changes; confirmed, the terminal is free again.
        try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .dismissDialog, .click("Reset"),
        ])
        #expect(try bench.tapsim("status")["registered"] as? Bool == true)
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .acceptDialog, .click("Reset"), .read("#reset-message"), .inViewport("#reset-message"),
        ])
        #expect(seen.first as? String == "EU is back to its fixtures.", "\(seen)")
        #expect(seen.last as? Bool == true, "the answer shows beside the button: \(seen)")
        #expect(try bench.tapsim("status")["registered"] as? Bool == false)
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func aTokenReadFromTheQRCodeRegistersTheDevice() throws {
        let bench = try PortalBench()
        let terminal = try #require(try bench.running.fixtures.region("EU").terminals.first { $0.allows("registrationCode") && !$0.autoLogin })
        let qr = bench.running.directory.file("token-qr.png")
        let row = "tr[data-terminal=\"\(terminal.id)\"]"
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/terminals.html"), .select("Region", "EU"), .clickIn(row, name: "Create registration token"),
            .read("#token-text"), .read("#token-terminal"), .read("#token-expires"), .screenshot("#token-qr", to: qr),
        ])
        let token = try #require(seen[0] as? String)
        #expect(seen[1] as? String == terminal.id)
        #expect(token.hasPrefix("rt_eu_"), "\(token)")
        let scanned = try Self.scan(qr)
        #expect(scanned == "taponmobile://register?environment=EU&token=\(token)")

        let fromQR = try #require(URLComponents(string: scanned)?.queryItems?.first { $0.name == "token" }?.value)
        let registered = try bench.tapsim("register token", "--token", fromQR, "--pin", "1234")
        #expect(registered["terminalId"] as? String == terminal.id, "\(registered)")
    }
}
