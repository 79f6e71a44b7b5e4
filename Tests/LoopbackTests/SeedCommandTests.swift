import Foundation
import SandboxTestSupport
import Testing

/// `sandbox up --seed` and `sandbox seed`, run as a person runs them, in a folder that plays a
/// checkout (the sandbox's data from this one).
@Suite("sandbox seed", .blocksThreads)
struct SeedCommandTests {
    @Test("sandbox up --seed: the seeded device pays at once, no registration; started again, the seed is not applied twice", .timeLimit(.minutes(2)))
    func upWithSeedPaysAtOnce() throws {
        let checkout = TemporaryDirectory()
        let base = try freeConsecutivePorts(RegionFacts.all.count + 3)
        let script = """
            start() { sandbox up --base-port \(base) --regions EU --seed logged-in-eu > up.log & pid=$!; until [ -s .sandbox/endpoints.json ]; do sleep 0.1; done; }
            start
            grep '^Seeded EU' up.log
            tapsim --field count count
            tapsim --field transaction.transactionStatus pay --amount 1250
            tapsim --field count count
            kill $pid; wait $pid || true
            start
            grep 'already holds state' up.log
            tapsim --field count count
            kill $pid; wait $pid || true
            """
        let text = try runExample(script, in: checkout.url, scratch: checkout, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(text)")
        #expect(lines.first?.hasPrefix("Seeded EU: 1 device (EU-T0101, logged in in ") == true, "\(text)")
        // Five seeded payments and the refund of the REFUNDED one; then the sale; then no second seed.
        #expect(Array(lines.dropFirst().prefix(3)) == ["6", "CLEARED", "7"], "\(text)")
        #expect(lines.count == 6 && lines[4].contains("the seed") && lines[5] == "7", "\(text)")
    }

    @Test("sandbox seed: one region's bad part is refused with its path, and no region's part is applied", .timeLimit(.minutes(2)))
    func refusedWholeAcrossRegions() throws {
        let checkout = TemporaryDirectory()
        let base = try freeConsecutivePorts(RegionFacts.all.count + 3)
        let good = #"{"regions": {"EU": {"devices": [{"terminalId": "EU-T0101", "secureCode": "2468", "loggedIn": true}]}}}"#
        let bad = #"{"regions": {"EU": {"devices": [{"terminalId": "EU-T0101", "secureCode": "2468"}]}, "ANZ": {"devices": [{"terminalId": "ANZ-T9999", "secureCode": "2468"}]}}}"#
        let script = """
            sandbox up --base-port \(base) --regions EU,ANZ > up.log &
            until [ -s .sandbox/endpoints.json ]; do sleep 0.1; done
            echo '\(bad)' > bad.json
            echo '\(good)' > good.json
            sandbox seed bad.json 2> refused.txt && exit 1
            echo '{"regions": {"EU": {"devices": [{"terminalId": "EU-T0101", "pin": "2468"}]}}}' > misspelt.json
            sandbox seed misspelt.json 2>> refused.txt && exit 1
            echo '{"regions": {"EU": {"devices": [{"terminalId": "EU-T0101", "secureCode": "2468"}]}}, "wallet": {"customers": [{"customerId": "ola", "name": "Ola", "bank": "mBank", "currency": "PLN", "balance": -1, "perPaymentLimit": 100}]}}' > wallet.json
            sandbox seed wallet.json 2>> refused.txt && exit 1
            echo '{"regions": {"EU": {"transactions": [{"terminalId": "EU-T0101", "amount": "x", "status": "CLEARED", "secondsAgo": 1}]}}}' > type.json
            sandbox seed type.json 2>> refused.txt && exit 1
            sandbox seed good.json
            tapsim --field terminalId status
            kill %1
            wait
            """
        let text = try runExample(script, in: checkout.url, scratch: checkout, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        let refused = (try? String(contentsOf: checkout.file("refused.txt"), encoding: .utf8)) ?? ""
        #expect(refused.contains("bad.json: regions.ANZ.devices[0].terminalId: The ANZ region has no terminal 'ANZ-T9999'"), "\(refused)")
        #expect(refused.contains("nothing was applied"), "\(refused)")
        #expect(refused.contains("misspelt.json: regions.EU.devices[0].pin is not a field of a seed"), "\(refused)")
        #expect(refused.contains("wallet.json: wallet.customers[0].balance: "), "the wallet's part refused, EU's not applied: \(refused)")
        #expect(refused.contains("type.json: The field regions.EU.transactions[0].amount has the wrong type."), "\(refused)")
        // EU's part of the refused seed was not applied: its terminal is still free for the good one.
        #expect(text.hasPrefix("Seeded EU: 1 device (EU-T0101, logged in in "), "\(text)")
        #expect(text.hasSuffix("EU-T0101\n"), "\(text)")
    }

    /// The EXAMPLES of `sandbox seed --help`, `sandbox snapshot --help` and `sandbox reset --help`,
    /// run as written, in that order, against a running sandbox.
    @Test("the examples of sandbox seed, snapshot and reset --help run as written", .timeLimit(.minutes(2)))
    func helpExamplesRun() throws {
        let sandbox = try builtExecutable("sandbox")
        var examples: [String] = []
        for command in ["seed", "snapshot", "reset"] {
            let help = try run(sandbox, [command, "--help"])
            let found = helpExamples(help.stdout).map { $0.joined(separator: " ") }
            #expect(!found.isEmpty && found.allSatisfy { $0.hasPrefix("sandbox \(command)") }, "\(help)")
            examples += found
        }
        let checkout = TemporaryDirectory()
        let base = try freeConsecutivePorts(RegionFacts.all.count + 3)
        let script = """
            sandbox up --base-port \(base) --regions EU > up.log &
            until [ -s .sandbox/endpoints.json ]; do sleep 0.1; done
            \(examples.joined(separator: "\n"))
            kill %1
            wait
            """
        let text = try runExample(script, in: checkout.url, scratch: checkout, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        #expect(text.contains("Seeded EU") && text.contains("Saved snapshot 'before-checkout'") && text.contains("Reset "), "\(text)")
    }

    @Test("--export-on-exit writes the state on a clean stop; --import starts another data directory from it, where the device goes on", .timeLimit(.minutes(2)))
    func exportThenImport() throws {
        let checkout = TemporaryDirectory()
        let base = try freeConsecutivePorts(RegionFacts.all.count + 3)
        let script = """
            sandbox up --base-port \(base) --regions EU --seed logged-in-eu --export-on-exit state > first.log & pid=$!
            until [ -s .sandbox/endpoints.json ]; do sleep 0.1; done
            tapsim --field transaction.transactionStatus pay --amount 1250
            kill $pid; wait $pid
            grep '^Exported the state of ' first.log
            sandbox up --base-port \(base) --regions EU --data-dir other --import state > second.log & pid=$!
            until [ -s other/endpoints.json ]; do sleep 0.1; done
            grep '^Imported the state of ' second.log
            tapsim --endpoints other/endpoints.json --device .sandbox/devices/EU --field count count
            sandbox up --data-dir third --import nowhere --dry-run 2> refused.txt || echo "refused: exit $?"
            kill $pid; wait $pid
            """
        let text = try runExample(script, in: checkout.url, scratch: checkout, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(text)")
        #expect(lines.first == "CLEARED", "\(text)")
        #expect(lines.count > 2 && lines[1].hasPrefix("Exported the state of 3 services to ") && lines[2].hasPrefix("Imported the state of 3 services from "), "\(text)")
        // The seed's six and the sale, on the other data directory; the seeded device's session came along.
        #expect(lines.count > 3 && lines[3] == "7", "\(text)")
        #expect(lines.last == "refused: exit 2", "\(text)")
        let refused = (try? String(contentsOf: checkout.file("refused.txt"), encoding: .utf8)) ?? ""
        #expect(refused.contains("--import nowhere: no such folder"), "\(refused)")
        #expect(FileManager.default.fileExists(atPath: checkout.file("state/eu.sqlite").path), "the exported folder holds the host's part")
    }

    @Test("sandbox-host --seed applies its region's part and says the others are not for it; the seeded session answers", .timeLimit(.minutes(2)))
    func hostWithSeed() throws {
        let checkout = TemporaryDirectory()
        let port = freePort()
        let script = """
            sandbox-host --env EU --port \(port) --data-dir d --seed busy-yesterday > host.log & pid=$!
            until grep -q 'listening on' host.log; do sleep 0.1; done
            grep '^Seeded EU' host.log
            grep 'are for other services' host.log
            token=$(python3 -c 'import json; print(json.load(open("d/devices/EU/device.json"))["session"]["token"])')
            curl -s -H "Authorization: Bearer $token" http://127.0.0.1:\(port)/terminal/v1/transactions/count
            echo
            kill $pid; wait $pid
            sandbox-host --env EU --port \(port) --data-dir d --seed logged-in-eu --dry-run > /dev/null
            sandbox-host --env ANZ --data-dir d --seed logged-in-eu --dry-run 2> refused.txt || echo "refused: exit $?"
            """
        let text = try runExample(script, in: checkout.url, scratch: checkout, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(text)")
        #expect(lines.first?.hasPrefix("Seeded EU: 1 device (EU-T0101, logged in in ") == true, "\(text)")
        #expect(lines.count > 1 && lines[1] == "(the seed's parts for MBANK, wallet are for other services: not applied here)", "\(text)")
        #expect(lines.count > 2 && lines[2] == #"{"count":21}"#, "twenty sales and the refund of the REFUNDED one: \(text)")
        #expect(lines.last == "refused: exit 2", "\(text)")
        let refused = (try? String(contentsOf: checkout.file("refused.txt"), encoding: .utf8)) ?? ""
        #expect(refused.contains("has no part for ANZ (it has EU)"), "\(refused)")
    }
}
