import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// The portal's "Terminals" page beyond registration: registration tokens refreshed and e-mailed,
/// the lock a token puts on a terminal, and a locked secure code unlocked, as a tester does it.
@Suite(.serialized, .blocksThreads) struct PortalTerminalsPageTests {
    static let available = BrowserPerson.isAvailable

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func aTokenRefreshedKeepsItsValueAndAnEmailedOneIsInTheMailbox() throws {
        let bench = try PortalBench()
        let terminal = try #require(try bench.running.fixtures.region("EU").terminals.first { $0.allows("registrationCode") && $0.allows("portal") })
        let row = "tr[data-terminal=\"\(terminal.id)\"]"
        let scratch = TemporaryDirectory()
        let mailedQR = scratch.file("mailed-qr.png")
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/terminals.html"), .select("Region", "EU"), .clickIn(row, name: "Create registration token"),
            .read("#token-text"), .read("#token-expires"), .inViewport("#token"),
            .click("Refresh token"), .waitText("#token-message", contains: "Refreshed"), .read("#token-text"),
            .fill("E-mail", "owner@example.org"), .click("Send by e-mail"), .read("#token-message"), .inViewport("#token-message"),
            .goto(bench.portal + "/terminals.html"), .select("Region", "EU"), .read("\(row) td.state"),
            .goto(bench.portal + "/mailbox.html"), .select("Region", "EU"), .readAll("#mails tbody tr td:nth-child(2)"),
            .clickLink("Activate terminal \(terminal.id)"), .read("#mail-body"), .screenshot("#mail-qr-image", to: mailedQR),
        ])
        let token = try #require(seen[0] as? String)
        #expect(seen[2] as? Bool == true, "the token opens where the tester is looking: \(seen)")
        #expect(seen[3] as? String == token, "a refreshed token keeps its value")
        #expect(seen[4] as? String == "Sent to owner@example.org: see the Mailbox." && seen[5] as? Bool == true, "\(seen)")
        #expect((seen[6] as? String)?.contains("locked by a registration token until") == true, "\(seen[6])")
        #expect((seen[7] as? [String])?.first == "owner@example.org", "\(seen[7])")
        #expect((seen[8] as? String)?.contains("Registration token: \(token)") == true, "\(seen[8])")
        // The mail shows the token's QR as the customer's mail client would: a scanner reads the app link.
        #expect(try PortalSandboxPageTests.scan(mailedQR) == "taponmobile://register?environment=EU&token=\(token)")

        // Meanwhile the terminal takes no challenge code.
        _ = try bench.tapsim("register begin")
        let refused = try bench.tapsimOutput("register confirm", "--terminal", terminal.id)
        #expect(refused.status != 0 && refused.stderr.contains("registration token"), "\(refused)")

        // Revoked from the page: the token registers nobody, and the terminal is free of it.
        let revoked = try BrowserPerson.run([
            .goto(bench.portal + "/terminals.html"), .select("Region", "EU"), .clickIn(row, name: "Create registration token"),
            .read("#token-text"), .click("Close"), .read("\(row) td.state"), .clickIn(row, name: "Create registration token"),
            .read("#token-text"), .click("Revoke token"), .waitText("\(row) .feedback", contains: "Revoked"), .read("\(row) .feedback"),
            .read("\(row) td.state"), .inViewport("\(row) .feedback"),
        ])
        #expect((revoked[1] as? String)?.contains("locked by a registration token until") == true, "the row changed without a reload: \(revoked)")
        let second = try #require(revoked[2] as? String)
        #expect(second != token && revoked[0] as? String != token, "\(revoked)")
        #expect((revoked[3] as? String)?.contains("no device can register with that token") == true, "\(revoked)")
        #expect(revoked[4] as? String == "free" && revoked[5] as? Bool == true, "\(revoked)")
        let spent = try bench.tapsimOutput("register token", "--token", second, "--pin", "2468")
        #expect(spent.status != 0 && spent.stdout.contains("registration_token_invalid") || spent.stderr.contains("registration_token_invalid"), "\(spent)")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func aLockedSecureCodeIsUnlockedFromThePage() throws {
        let bench = try PortalBench()
        let registered = try bench.tapsim("register quick", "--pin", "1234")
        let terminal = try #require(registered["terminalId"] as? String, "\(registered)")
        _ = try bench.tapsim("logout")
        for _ in 0..<5 { _ = try bench.tapsimOutput("login", "--pin", "9999") }
        let locked = try bench.tapsimOutput("login", "--pin", "1234")
        #expect(locked.status != 0, "five wrong codes lock the terminal: \(locked)")

        let row = "tr[data-terminal=\"\(terminal)\"]"
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/terminals.html"), .select("Region", "EU"), .read("\(row) td.state"),
            .clickIn(row, name: "Unlock secure code"), .read("\(row) .feedback"), .read("\(row) td.state"), .inViewport("\(row) .feedback"),
        ])
        #expect((seen[0] as? String)?.hasSuffix("secure code locked") == true, "\(seen)")
        #expect(seen[1] as? String == "Unlock secure code: done for \(terminal).", "\(seen)")
        #expect((seen[2] as? String)?.contains("locked") == false && seen[3] as? Bool == true, "\(seen)")
        #expect(try bench.tapsimOutput("login", "--pin", "1234").status == 0)
    }
}
