import Foundation
import HostTestSupport
import Launcher
import SandboxHTTP
import Testing
import SandboxTestSupport

/// The portal's "Register a device" and "Terminals" pages, used as a tester does: a person types
/// the code `tapsim register begin` printed, presses the buttons, and types the back-office code
/// the page shows into `tapsim register end`.
@Suite(.serialized, .blocksThreads) struct PortalRegistrationTests {
    static let available = BrowserPerson.isAvailable

    @Test(
        "the back-office code counts down on the host's clock: moved a day ahead, a ten-minute code still shows at most ten minutes",
        .enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func theCountdownFollowsTheHostsClock() throws {
        let bench = try PortalBench()
        let moved = Service(baseURL: try bench.running.url(of: "EU")).call("POST", "/_sandbox/clock", body: ["advanceSeconds": 86_400])
        try #require(moved.status == 200, "\(moved)")
        let challenge = try #require(try bench.tapsim("register begin")["challengeCode"] as? String)
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/register.html"), .select("Region", "EU"), .fill("Code", challenge), .click("Find registration"),
            .click("Confirm registration"), .read("#backoffice-left"),
        ])
        let left = try #require(seen.first as? String)
        let minutes = Int(left.prefix { $0.isNumber }) ?? -1
        #expect((0...10).contains(minutes) && left.hasSuffix("s left"), "a ten-minute code shows \(left)")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func deviceStartedByTapsimIsRegisteredFromThePortal() throws {
        let bench = try PortalBench()
        let challenge = try #require(try bench.tapsim("register begin")["challengeCode"] as? String)
        // Typed as a person might: lower case, no dash.
        let typed = challenge.lowercased().replacingOccurrences(of: "-", with: "")
        let seen = try BrowserPerson.run([
            .goto(bench.portal + "/register.html"), .select("Region", "EU"), .fill("Code", typed), .click("Find registration"),
            .read("#device-model"), .read("#device-region"), .readAll("#terminal option:checked"), .inViewport("#confirm"),
            .click("Confirm registration"), .read("#backoffice-code"), .read("#confirmed-terminal"), .read("#backoffice-left"),
            .inViewport("#backoffice-code"),
        ])
        let model = try #require(seen[0] as? String)
        #expect(!model.isEmpty)
        #expect(seen[1] as? String == "EU")
        let chosen = try #require((seen[2] as? [String])?.first)
        let code = try #require(seen[4] as? String)
        let terminal = try #require(seen[5] as? String)
        #expect(code.range(of: #"^EU-[0-9]{6}$"#, options: .regularExpression) != nil, "\(code)")
        #expect(chosen.hasPrefix(terminal) && chosen.hasSuffix("(free)"), "the page picked \(chosen), confirmed \(terminal)")
        #expect((seen[6] as? String)?.hasSuffix("s left") == true, "\(seen[6])")
        #expect(seen[3] as? Bool == true && seen[7] as? Bool == true, "the device found, then its code, show where the tester is looking: \(seen)")

        let registered = try bench.tapsim("register end", "--backoffice-code", code, "--pin", "1234")
        #expect(registered["terminalId"] as? String == terminal, "\(registered)")
        let status = try bench.tapsim("status")
        #expect(status["registered"] as? Bool == true)
        #expect(status["terminalId"] as? String == terminal)

        // The Terminals page shows it registered, to that device.
        let row = "tr[data-terminal=\"\(terminal)\"]"
        let state = try BrowserPerson.run([
            .goto(bench.portal + "/terminals.html"), .select("Region", "EU"), .read("\(row) td.state"),
        ])
        #expect((state[0] as? String)?.hasPrefix("registered to ") == true, "\(state)")
        #expect((state[0] as? String)?.contains(model) == true, "\(state)")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func eachWrongCodeGetsItsOwnMessage() throws {
        let bench = try PortalBench()
        let challenge = try #require(try bench.tapsim("register begin")["challengeCode"] as? String)
        let anz = try #require(try bench.tapsim("--env", "ANZ", "--device", "anz-phone", "register begin")["challengeCode"] as? String)
        // What the page says to each code, typed one after the other on the same page.
        func messages(for codes: [String]) throws -> [String] {
            var steps: [BrowserPerson.Step] = [.goto(bench.portal + "/register.html"), .select("Region", "EU")]
            for code in codes {
                steps += [.fill("Code", code), .click("Find registration"), .read("#find-message"), .inViewport("#find-message")]
            }
            let seen = try BrowserPerson.run(steps)
            #expect(seen.compactMap { $0 as? Bool } == Array(repeating: true, count: codes.count), "each message beside the field: \(seen)")
            return seen.compactMap { $0 as? String }
        }
        _ = try bench.tapsim("--device", "confirmed-phone", "register begin")
        let used = try #require(try bench.tapsim("--device", "confirmed-phone", "register confirm")["challengeCode"] as? String)
        let seen = try messages(for: ["ABC", "ZZZZ-ZZZZ", anz, used])
        try #require(seen.count == 4, "\(seen)")
        #expect(seen[0].hasPrefix("A code has 8 letters and digits"), "\(seen[0])")
        #expect(seen[1].hasPrefix("No registration with this code on this host"), "\(seen[1])")
        #expect(seen[2].contains("made on the ANZ host"), "\(seen[2])")
        #expect(seen[3].hasPrefix("This code was already confirmed"), "\(seen[3])")

        // Ten minutes later, the first code has expired.
        let clock = Service(baseURL: try bench.running.url(of: "EU")).call("POST", "/_sandbox/clock", body: ["advanceSeconds": 601])
        #expect(clock.status == 200, "\(clock)")
        #expect(try messages(for: [challenge]).first?.hasPrefix("This code expired") == true)
    }
}
