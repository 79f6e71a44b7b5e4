import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// `POST /_sandbox/seed`: a region's part of a seed, applied whole or refused whole.
@Suite("Seeds: a host's state from a seed")
struct SeedTests {
    nonisolated(unsafe) static let device: [String: Any] = ["terminalId": "EU-T0101", "secureCode": "2468", "loggedIn": true]
    nonisolated(unsafe) static let history: [[String: Any]] = [
        ["terminalId": "EU-T0101", "amount": 1250, "status": "CLEARED", "card": "visa", "secondsAgo": 86_400, "reference": "yesterday-1"],
        ["terminalId": "EU-T0101", "amount": 990, "status": "DECLINED", "card": "mc", "secondsAgo": 82_800],
        ["terminalId": "EU-T0101", "amount": 3000, "status": "REFUNDED", "card": "maestro", "secondsAgo": 79_200],
        ["terminalId": "EU-T0101", "amount": 1800, "status": "CLEARED", "method": "QRCODE", "brand": "ALIPAY", "secondsAgo": 72_000],
    ]

    @Test("a logged-in device pays at once; its history, the back office and the webhook endpoint show the seed")
    func seededDevicePays() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
            let seeded = expectReply(
                await host.service.call(
                    "POST", "/_sandbox/seed",
                    body: [
                        "devices": [Self.device], "transactions": Self.history,
                        "webhooks": [["merchantId": "EU-M01", "url": "http://127.0.0.1:4242/hooks", "scheme": "standard", "secret": secret]],
                    ]), 201, nil, "the seed")
            let device = try #require(seeded.array("devices")?.first as? [String: Any], "\(seeded)")
            let token = try #require(device["sessionToken"] as? String, "\(seeded)")
            #expect(device["installationId"] as? String == "seed-eu-t0101" && (device["deviceSecret"] as? String)?.hasPrefix("ds_") == true)
            #expect(seeded.array("transactions")?.count == 4)

            // The seeded history, oldest first in time: the refund of the REFUNDED sale is in it too.
            let listed = expectReply(await host.service.call("GET", "/terminal/v1/transactions?itemsPerPage=50", bearer: token), 200, nil, "history")
            let rows = try #require(listed.array("items") as? [[String: Any]], "\(listed)")
            #expect(rows.count == 5, "\(listed)")
            #expect(Set(rows.compactMap { $0["transactionStatus"] as? String ?? $0["status"] as? String }) == ["CLEARED", "DECLINED", "REFUNDED"], "\(listed)")
            let detail = expectReply(
                await host.service.call("GET", "/terminal/v1/transactions/details?reference=yesterday-1", bearer: token), 200, nil, "by reference")
            #expect(detail.text.contains("476173******0011") && detail.text.contains("VISA"), "the card kept: \(detail)")

            // The device pays at once: no registration, no login.
            let terminal = try host.counter()
            try #require(terminal.id == "EU-T0101", "the counter terminal the seed names")
            let credential = DeviceCredential(deviceId: "seed-eu-t0101", secret: device["deviceSecret"] as? String ?? "", terminalId: terminal.id)
            let till = try await Till.adopt(host, terminal, credential, token: token)
            _ = try await till.cleared(amount: 700, "a sale on the seeded device")
            #expect(await till.count("after the sale") == 6)

            // The secure code is the seed's.
            let login = await host.service.call(
                "POST", "/terminal/v1/sessions",
                body: ["deviceId": "seed-eu-t0101", "deviceSecret": device["deviceSecret"] as! String, "pin": "1111"])
            #expect(login.status != 200 && login.status != 201, "a wrong code: \(login)")

            let webhook = await host.service.call("GET", "/backoffice/v1/merchants/EU-M01/webhook", bearer: host.fixture.backOfficeKey)
            #expect(webhook.string("url") == "http://127.0.0.1:4242/hooks" && webhook.string("scheme") == "standard", "\(webhook)")
            #expect(webhook.text.contains(secret), "\(webhook)")
        }
    }

    @Test("a bad seed is refused whole, naming its first bad field; nothing of it stays")
    func refusedWhole() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU").service
            var badCard = Self.history
            badCard[1]["card"] = "no-such-card"
            let cases: [(body: [String: Any], status: Int, code: String, field: String)] = [
                (["devices": [Self.device], "transactions": badCard], 400, "invalid_request", "transactions[1].card"),
                (["devices": [Self.device, ["terminalId": "EU-T9999", "secureCode": "1234"]]], 400, "invalid_request", "devices[1].terminalId"),
                (["devices": [["terminalId": "EU-T0101", "secureCode": "12"]]], 400, "invalid_request", "devices[0].secureCode"),
                (["devices": [["terminalId": "EU-T0101", "secureCod": "1234"]]], 400, "invalid_request", "devices[0].secureCod"),
                (["transactions": [["terminalId": "EU-T0101", "amount": 100, "status": "NEW", "secondsAgo": 5]]], 400, "invalid_request", "transactions[0].status"),
                (["transactions": [["terminalId": "EU-T0101", "amount": 100, "status": "CLEARED"]]], 400, "invalid_json", "transactions[0].secondsAgo"),
                (["webhooks": [["merchantId": "EU-M01", "url": "http://169.254.169.254/latest"]]], 400, "invalid_request", "webhooks[0].url"),
                (["webhooks": [["merchantId": "EU-M01", "secret": "whsec_short"]]], 400, "invalid_request", "webhooks[0].secret"),
            ]
            for (body, status, code, field) in cases {
                let refused = expectReply(await host.call("POST", "/_sandbox/seed", body: body), status, code, "refused: \(field)")
                #expect(refused.errorField == field, "\(refused)")
            }
            let badFlag = expectReply(await host.call("POST", "/_sandbox/seed?dryRun=yes", body: [:]), 400, "invalid_request", "dryRun=yes")
            #expect(badFlag.errorField == "query.dryRun", "\(badFlag)")
            // A dry run checks and keeps nothing.
            expectReply(await host.call("POST", "/_sandbox/seed?dryRun=true", body: ["devices": [Self.device], "transactions": Self.history]), 200, nil, "dry run")
            // Nothing of the refused seeds, nor of the dry run, stayed: the whole seed applies now, once.
            expectReply(await host.call("POST", "/_sandbox/seed", body: ["devices": [Self.device], "transactions": Self.history]), 201, nil, "the seed")
            let again = expectReply(await host.call("POST", "/_sandbox/seed", body: ["devices": [Self.device]]), 409, "terminal_in_use", "seeded twice")
            #expect(again.errorField == "devices[0].terminalId")
        }
    }

    /// The seeds shipped in sandbox-data/seeds/: each is valid by the schema (checked by Python's
    /// `jsonschema`, as an editor checks it) and each region's part applies on its host.
    @Test("every seed in sandbox-data/seeds/ is valid by seed.schema.json and applies on its hosts")
    func shippedSeedsApply() async throws {
        let folder = Paths.sandboxData.appendingPathComponent("seeds")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") && $0 != "seed.schema.json" }.sorted()
        #expect(files.count >= 2, "\(files)")
        let check = try SpawnedProcess.run("python3", [
            "-c",
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            for path in sys.argv[2:]:
                errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(path))))
                if errors: print(path, errors[0].json_path, errors[0].message)
            """,
            folder.appendingPathComponent("seed.schema.json").path,
        ] + files.map { folder.appendingPathComponent($0).path })
        #expect(check.status == 0 && check.standardOutput.isEmpty, "\(String(decoding: check.standardOutput, as: UTF8.self)) \(check)")
        for file in files {
            let seed = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(file))) as? [String: Any])
            let regions = try #require(seed["regions"] as? [String: [String: Any]], "\(file)")
            try await withSandbox(regions: regions.keys.sorted()) { sandbox in
                for (region, part) in regions {
                    let applied = expectReply(
                        await try sandbox.host(region).service.call("POST", "/_sandbox/seed", body: part), 201, nil, "\(file): \(region)")
                    #expect(applied.array("transactions")?.count == (part["transactions"] as? [Any])?.count ?? 0, "\(file): \(applied)")
                    #expect(applied.array("qrOrders")?.count == (part["qrOrders"] as? [Any])?.count, "\(file): \(applied)")
                }
                if let part = seed["wallet"] as? [String: Any] {
                    let wallet = Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url)
                    let applied = expectReply(await wallet.call("POST", "/_sandbox/seed", body: part), 201, nil, "\(file): wallet")
                    #expect(applied.array("rules")?.count == (part["rules"] as? [Any])?.count ?? 0, "\(file): \(applied)")
                }
            }
        }
    }

    @Test("the wallet's part: a customer made, one of wallet.json changed, a rule added; a bad part refused whole with its path")
    func walletPart() async throws {
        try await withSandbox { sandbox in
            let wallet = Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url)
            let customers: [[String: Any]] = [
                ["customerId": "ola", "name": "Ola Zielińska", "bank": "mBank", "currency": "PLN", "balance": 25_000, "perPaymentLimit": 20_000],
                ["customerId": "anna", "name": "Anna Nowak", "bank": "PKO Bank Polski", "currency": "PLN", "balance": 1, "perPaymentLimit": 100],
            ]
            let rules: [[String: Any]] = [["terminalId": "EU-T0101", "action": "approve", "afterSeconds": 2]]
            var bad = customers
            bad[1]["balance"] = -5
            let refused = expectReply(
                await wallet.call("POST", "/_sandbox/seed", body: ["customers": bad, "rules": rules]), 400, "invalid_request", "a negative balance")
            #expect(refused.errorField == "customers[1].balance", "\(refused)")
            let badRule = expectReply(
                await wallet.call("POST", "/_sandbox/seed", body: ["customers": customers, "rules": [["action": "pay"]]]), 400, "invalid_request", "a bad rule")
            #expect(badRule.errorField == "rules[0].action", "\(badRule)")
            let misspelt = expectReply(await wallet.call("POST", "/_sandbox/seed", body: ["customer": customers]), 400, "invalid_request", "misspelt")
            #expect(misspelt.errorField == "customer", "\(misspelt)")
            expectReply(await wallet.call("GET", "/api/blik/customers/ola"), 404, "customer_not_found", "nothing of the refused parts stayed")
            #expect(await wallet.call("GET", "/api/rules").array("rules")?.isEmpty == true)

            expectReply(await wallet.call("POST", "/_sandbox/seed?dryRun=true", body: ["customers": customers, "rules": rules]), 200, nil, "dry run")
            expectReply(await wallet.call("GET", "/api/blik/customers/ola"), 404, "customer_not_found", "a dry run keeps nothing")
            let applied = expectReply(await wallet.call("POST", "/_sandbox/seed", body: ["customers": customers, "rules": rules]), 201, nil, "the part")
            #expect(applied.array("customers") as? [String] == ["ola", "anna"], "\(applied)")
            #expect(await wallet.call("GET", "/api/blik/customers/ola")["balance"] as? Int == 25_000)
            #expect(await wallet.call("GET", "/api/blik/customers/anna")["balance"] as? Int == 1, "wallet.json's customer changed")
            #expect(await wallet.call("GET", "/api/rules").text.contains("EU-T0101"))
        }
    }

    @Test("a MONEI host takes seeded payments and no devices (its devices sign in with POS tokens)")
    func moneiTakesNoDevices() async throws {
        try await withSandbox(regions: ["MONEI"]) { sandbox in
            let host = try sandbox.host("MONEI").service
            let refused = expectReply(
                await host.call("POST", "/_sandbox/seed", body: ["devices": [["terminalId": "MONEI-T0101"]]]), 400, "invalid_request", "a device")
            #expect(refused.errorField == "devices[0]", "\(refused)")
            let seeded = expectReply(
                await host.call(
                    "POST", "/_sandbox/seed",
                    body: ["transactions": [["terminalId": "MONEI-T0101", "amount": 1250, "status": "CLEARED", "secondsAgo": 60]]]),
                201, nil, "a payment")
            #expect(seeded.array("transactions")?.count == 1, "\(seeded)")
        }
    }
}
