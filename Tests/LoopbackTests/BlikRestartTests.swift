import Foundation
import SandboxTestSupport
import Testing

/// A BLIK payment whose sandbox dies in the middle: `sandbox up` (hosts and wallet, one process)
/// SIGKILLed while the customer's confirmation request is open, started again on the same data
/// folder and ports. Nothing is lost: the request is still there, the customer approves it, the
/// host hears it and the device reads CLEARED; the money moved once and the code stays used.
@Suite("BLIK across a SIGKILL of the whole sandbox", .serialized, .blocksThreads)
struct BlikRestartTests {
    @Test("killed mid-payment and started again: the open request is approved, CLEARED on the host, charged once, the code spent")
    func aPaymentSurvivesAKilledSandbox() throws {
        let data = TemporaryDirectory()
        let work = data.file("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var (sandbox, base) = try startSandboxUp(dataDirectory: data.url)
        defer { sandbox.stop() }
        let tapsimExecutable = try builtExecutable("tapsim")
        let common = ["--endpoints", data.file("endpoints.json").path, "--sandbox-data", Paths.sandboxData.path, "--env", "MBANK"]
        func tapsim(_ arguments: String...) throws -> ProcessOutput {
            try SpawnedProcess.run(tapsimExecutable, common + arguments, in: work, timeout: 60)
        }
        let wallet = try walletURL(data)
        func post(_ path: String) throws -> Fetched {
            let curl = try SpawnedProcess.run(
                "curl", ["-sS", "-m", "10", "-X", "POST", "-H", "Content-Type: application/json", "-d", "{}", "-w", "\n%{http_code}", wallet + path])
            var lines = curl.stdout.components(separatedBy: "\n")
            let status = Int(lines.removeLast()) ?? 0
            return Fetched(status: status, contentType: "", body: lines.joined(separator: "\n"))
        }

        try #require(try tapsim("register", "quick", "--pin", "2468", "--terminal", "MBANK-T0101").status == 0)
        try #require(try tapsim("login", "--pin", "2468").status == 0)
        let before = try #require(try get(wallet + "/api/blik/customers/jan").json?["balance"] as? Int)
        let code = try tapsim("--field", "code", "blik", "code").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let device = try ChildProcess(tapsimExecutable, common + ["blik", "pay", "--amount", "1250", "--code", code], workingDirectory: work)
        #expect(device.waitForOutput("Waiting for the customer", seconds: 60), "\(device.stdout)\n\(device.stderr)")
        let open = try #require(try get(wallet + "/api/blik/customers/jan/requests").json?["orders"] as? [[String: Any]])
        let transaction = try #require(open.first?["orderId"] as? String, "the bank app asks Jan: \(open)")

        // Killed, with the request open and the device polling; the device goes with it.
        sandbox.signal(SIGKILL)
        _ = sandbox.finish(within: 10)
        device.stop()
        (sandbox, base) = try startSandboxUp(dataDirectory: data.url, basePort: base)

        let requests = try #require(try get(wallet + "/api/blik/customers/jan/requests").json?["orders"] as? [[String: Any]])
        #expect(requests.map { $0["orderId"] as? String } == [transaction], "the request outlived the kill: \(requests)")
        let approved = try post("/api/orders/\(transaction)/pay")
        #expect(approved.status == 200 && approved.json?["status"] as? String == "paid", "\(approved)")
        let details = try tapsim("--json", "details", "--transaction", transaction)
        #expect(details.status == 0, "\(details)")
        let found = try #require(details.json)
        #expect(found[path: "transaction", "transactionStatus"] as? String == "CLEARED" && found[path: "transaction", "transactionAmount"] as? Int == 1250, "\(found)")
        #expect(try get(wallet + "/api/blik/customers/jan").json?["balance"] as? Int == before - 1250, "charged once")
        #expect(try post("/api/orders/\(transaction)/pay").status == 409, "an answered request cannot be paid again")
        let reused = try tapsim("--json", "blik", "pay", "--amount", "1250", "--code", code, "--approve")
        #expect(reused.status == 14 && reused.json?[path: "error", "code"] as? String == "blik_code_used", "\(reused)")
    }

    /// The wallet's URL from the sandbox's endpoints.json.
    func walletURL(_ data: TemporaryDirectory) throws -> String {
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: data.file("endpoints.json"))) as? [String: Any]
        return try #require(file?["wallet"] as? String, "endpoints.json names no wallet")
    }
}
