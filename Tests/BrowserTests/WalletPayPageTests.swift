import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// The QR's URL opened in headless Chromium, as a customer who scanned it: the wallet's pay page,
/// "Pay" pressed, and the device (`tapsim qr pay`, the SDK polling its host) completes CLEARED.
@Suite(.serialized, .blocksThreads) struct WalletPayPageTests {
    static let available = BrowserPerson.isAvailable

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func theQRsURLPaidInTheBrowserCompletesTheSDKsPaymentCleared() throws {
        let bench = try PortalBench()
        _ = try bench.tapsim("register quick", "--pin", "1234", "--terminal", "EU-T0101")
        _ = try bench.tapsim("login", "--pin", "1234")
        // The device waits for a real customer: tapsim polls its host every apmPulling seconds.
        let device = try ChildProcess(
            try builtExecutable("tapsim"),
            ["--endpoints", bench.endpoints.path, "--sandbox-data", Paths.sandboxData.path, "qr", "pay", "--amount", "1250"],
            workingDirectory: bench.work)
        defer { device.stop() }
        #expect(device.waitForOutput("Waiting for the customer", seconds: 90), "\(device.stdout)\n\(device.stderr)")
        let wallet = try #require(bench.running.sandbox.endpoints.wallet)
        let url = try #require(
            device.stdout.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.hasPrefix(wallet + "/pay/") },
            "no pay URL in \(device.stdout)")

        let seen = try BrowserPerson.run([
            .goto(url), .read("#order"), .click("Pay"), .waitText("#outcome", contains: "Paid"), .read("#outcome"),
        ], timeoutMilliseconds: 60_000)
        let page = try #require(seen.first as? String)
        #expect(page.contains("12.50") && page.contains("Alipay+"), "the pay page shows the amount and the brand: \(page)")
        #expect(seen.last as? String == "Paid", "\(seen)")

        let output = device.finish(within: 90)
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("CLEARED"), "\(output.stdout)")
    }
}

/// BLIK end to end as a tester does it by hand: the bank app page in headless Chromium generates
/// Jan's code, the device pays with it (`tapsim blik pay`, the SDK polling the mBank host), the
/// confirmation request shows up on the page, Approve, and the device completes CLEARED.
@Suite(.serialized, .blocksThreads) struct BlikBankEndToEndTests {
    @Test(.enabled(if: BrowserPerson.isAvailable, "Playwright for Python is missing: run scripts/setup"))
    func aCodeFromTheBankPageApprovedThereCompletesTheSDKsPaymentCleared() throws {
        let bench = try PortalBench()
        _ = try bench.tapsim("--env", "MBANK", "register", "quick", "--pin", "1234", "--terminal", "MBANK-T0101")
        _ = try bench.tapsim("--env", "MBANK", "login", "--pin", "1234")
        let wallet = try #require(bench.running.sandbox.endpoints.wallet)
        let generated = try BrowserPerson.run([
            .goto(wallet + "/bank?customer=jan"), .read("#balance"), .click("Generate code"), .read("#code"),
        ])
        let code = try #require((generated.last as? String)?.replacingOccurrences(of: " ", with: ""))
        #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(generated)")

        let device = try ChildProcess(
            try builtExecutable("tapsim"),
            ["--endpoints", bench.endpoints.path, "--sandbox-data", Paths.sandboxData.path, "--env", "MBANK", "blik", "pay", "--amount", "1250",
             "--code", code],
            workingDirectory: bench.work)
        defer { device.stop() }
        #expect(device.waitForOutput("Waiting for the customer", seconds: 90), "\(device.stdout)\n\(device.stderr)")

        let seen = try BrowserPerson.run([
            .goto(wallet + "/bank?customer=jan"), .read("#requests li .amount"), .click("Approve"),
            .waitText("#outcome", contains: "Approved"), .read("#outcome"), .read("#balance"),
        ], timeoutMilliseconds: 60_000)
        #expect((seen[0] as? String)?.contains("12.50") == true, "the request shows the device's amount: \(seen)")
        #expect((seen[1] as? String)?.hasPrefix("Approved: ") == true, "\(seen)")
        #expect((seen[2] as? String)?.contains("4,987.50") == true, "Jan's 5,000.00 zł less 12.50: \(seen)")

        let output = device.finish(within: 90)
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("CLEARED"), "\(output.stdout)")
    }
}
