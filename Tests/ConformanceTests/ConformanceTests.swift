import Foundation
import SandboxTestSupport
import Testing

/// The running `sandbox-host` against `openapi/environment-host.yaml`, and that document
/// against the contracts in `docs/terminal-lifecycle.md`, `docs/card-payments.md`, `docs/webhooks.md` and
/// `docs/qr-payments.md` and `docs/blik.md`.
///
/// Each surface gets its own host (fresh data directory) and credentials made over HTTP the way a
/// client makes them, then schemathesis generates requests from the document and checks every
/// answer against it. A failure shows schemathesis' report: the operation, the request (as curl)
/// and what was expected.
@Suite("OpenAPI conformance of the environment host", .blocksThreads)
struct ConformanceTests {
    /// One API surface of the host: the operations with this tag (`payments` also runs the public
    /// `receipts` pages, which need receipts that only the payments surface makes).
    enum Surface: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case platform, terminal, payments, apm, blik, merchant, backoffice, sandbox
        var testDescription: String { rawValue }
    }

    /// One schemathesis invocation: which operations, with which bearer credential, and which
    /// live values (devices, codes, tokens, terminals, transactions, amounts) generated requests
    /// draw half of the time. `prepare` runs right before the pass, after the ones before it, to
    /// make state that must be fresh (a transaction in flight, card reads) and set what needs it.
    struct Pass {
        var name: String
        var filters: [String]
        var authorization: String? = nil
        var dictionaries: [String: [String]] = [:]
        var numbers: [String: [Int]] = [:]
        var settings: [Schemathesis.OperationSettings] = []
        var prepare: ((inout Pass) throws -> Void)? = nil
    }

    /// Why a schema-valid request to a code check may be 429: generated codes and tokens are wrong,
    /// and the host throttles 20 wrong ones a minute from one address (docs/terminal-lifecycle.md).
    static let throttleReason =
        "Generated codes are wrong, and more than 20 wrong ones a minute from one address are rightly 429 too_many_attempts."

    /// The passes of a surface, in order, on one host, with the state they need made over HTTP.
    static func passes(_ surface: Surface, host: HostUnderTest, fixtures: Fixtures) throws -> [Pass] {
        typealias Settings = Schemathesis.OperationSettings
        switch surface {
        case .platform:
            return [Pass(name: "platform", filters: ["--include-tag", "platform"])]

        case .terminal:
            let session = try host.sessionToken(fixtures)
            var free = try host.freeTerminals(fixtures)
            func take(_ matching: (Fixtures.Terminal) -> Bool) -> Fixtures.Terminal? {
                guard let index = free.firstIndex(where: matching) else { return nil }
                return free.remove(at: index)
            }
            var dictionaries: [String: [String]] = [:]
            var settings: [Settings] = []
            // A second registered device whose credential login, status and unregister draw: they
            // answer 201/200/204 besides 401. Auto-login, so a login without a PIN is well formed.
            let probeTerminal = take { $0.registerOptions.contains("portal") && $0.autoLogin } ?? take { $0.registerOptions.contains("portal") }
            if let probeTerminal {
                dictionaries["probeDevice"] = ["conformance-probe-device"]
                dictionaries["probeSecret"] = [
                    try host.register(device: "conformance-probe-device", terminal: probeTerminal.id, pin: "1357", fixtures)
                ]
                settings.append(
                    Settings(
                        operations: ["doLogin", "isDeviceRegistered", "unregisterDevice"],
                        reason: "The probe device's credential. Generated PINs are wrong and five lock the device (423); "
                            + (probeTerminal.autoLogin ? "" : "its terminal has no auto-login, so a login without a PIN is 400 pin_required; ")
                            + "unregister ends the credential (401 afterwards). " + Self.throttleReason,
                        parameters: [("body.deviceId", "probeDevice"), ("body.deviceSecret", "probeSecret")],
                        positiveStatuses: ["2xx", "401", "423", "429"] + (probeTerminal.autoLogin ? [] : ["400"])))
            }
            // A back-office code waiting for its device: completion by that device succeeds once
            // (then 409 backoffice_code_used), by another device it is 403 backoffice_code_wrong_device.
            if let portalTerminal = take({ $0.registerOptions.contains("portal") }) {
                dictionaries["portalDevice"] = ["conformance-portal-device"]
                dictionaries["backofficeCodes"] = [
                    try host.backOfficeCode(device: "conformance-portal-device", terminal: portalTerminal.id, fixtures)
                ]
                settings.append(
                    Settings(
                        operations: ["endRegistration"],
                        reason: "A confirmed challenge's back-office code and its device."
                            + (portalTerminal.autoLogin
                                ? "" : " Its terminal has no auto-login, so completing without a PIN is rightly 400 pin_required.")
                            + " " + Self.throttleReason,
                        parameters: [("body.deviceId", "portalDevice"), ("body.backofficeCode", "backofficeCodes")],
                        positiveStatuses: ["2xx", "401", "403", "404", "409", "429"] + (portalTerminal.autoLogin ? [] : ["400"])))
                settings.append(
                    Settings(
                        operations: ["verifyChallengeCode"], reason: "A confirmed challenge's back-office code. " + Self.throttleReason,
                        parameters: [("body.code", "backofficeCodes")], positiveStatuses: ["2xx", "429"]))
            }
            // Registration tokens of free terminals: verify → begin → end by one device succeed in
            // that order; out of order, by another device or twice they are 409/403.
            let tokenTerminals = [take { $0.registerOptions.contains("registrationCode") }, take { $0.registerOptions.contains("registrationCode") }]
                .compactMap { $0 }
            if !tokenTerminals.isEmpty {
                let tokens = try tokenTerminals.map { try host.registrationToken(terminal: $0.id, fixtures) }
                // The first one verified already, so begin and end (which run before verify) can succeed.
                try host.expect(200, "POST", "/terminal/v1/token-registrations/verify", body: ["registrationToken": tokens[0]])
                dictionaries["tokens"] = tokens
                dictionaries["tokenDevice"] = ["conformance-token-device"]
                settings.append(
                    Settings(
                        operations: ["verifyRegistrationToken"], reason: "Tokens the back office issued. " + Self.throttleReason,
                        parameters: [("body.registrationToken", "tokens")], positiveStatuses: ["2xx", "429"]))
                settings.append(
                    Settings(
                        operations: ["beginTokenRegistration", "endTokenRegistration"],
                        reason: """
                            Tokens the back office issued and the device that uses them. Ending without a PIN on a \
                            terminal without auto-login is rightly 400 pin_required, whatever the schema allows. \(Self.throttleReason)
                            """,
                        parameters: [("body.registrationToken", "tokens"), ("body.deviceId", "tokenDevice")],
                        positiveStatuses: ["2xx", "400", "401", "403", "404", "409", "429"]))
            }
            // Two operations change what the others need: `PUT /terminal/v1/secret-code` with
            // generated (wrong) old codes locks the device after five, and `DELETE
            // /terminal/v1/sessions/current` ends the session. They run last, each alone, so the
            // other operations are exercised with a live session.
            return [
                Pass(
                    name: "terminal (without secret-code and logout)",
                    filters: ["--include-tag", "terminal", "--exclude-operation-id-regex", "^(updateSecretCode|doLogout)$"],
                    authorization: session, dictionaries: dictionaries, settings: settings),
                Pass(name: "terminal: secret code", filters: ["--include-operation-id", "updateSecretCode"], authorization: session),
                Pass(name: "terminal: logout", filters: ["--include-operation-id", "doLogout"], authorization: session),
            ]

        case .payments:
            return try paymentPasses(host: host, fixtures: fixtures)

        case .apm:
            guard let wallet = host.wallet else { throw HarnessError("the apm surface's host has no wallet double") }
            return try apmPasses(host: host, wallet: wallet, fixtures: fixtures)

        case .blik:
            guard let wallet = host.wallet else { throw HarnessError("the blik surface's host has no wallet double") }
            return try blikPasses(host: host, wallet: wallet, fixtures: fixtures)

        case .merchant:
            // The merchant's own terminals (201, or 409 when one has a device) and another
            // merchant's (404 terminal_not_found).
            let others = fixtures.merchants.dropFirst().compactMap { $0.terminals.first?.id }
            let environment = try host.expect(200, "GET", "/v1/environment")
            return [
                Pass(
                    name: "merchant", filters: ["--include-tag", "merchant"], authorization: fixtures.merchantAPIKey,
                    dictionaries: [
                        "terminals": fixtures.merchants[0].terminals.map(\.id) + others,
                        "currencies": [environment["currency"] as? String ?? "EUR"],
                    ],
                    numbers: ["amounts": paymentAmounts],
                    settings: [
                        Settings(
                            operations: ["createMerchantRegistrationToken"], reason: "Own and another merchant's terminals.",
                            parameters: [("body.terminalId", "terminals")]),
                        Settings(
                            operations: ["createCheckout"],
                            reason: """
                                Own and another merchant's terminals, the region's currency, ordinary amounts. Each \
                                terminal's own rules (limitAmount, tips, referencePattern) are no schema's business: \
                                a schema-valid checkout can rightly be 400 amount_over_limit, tips_not_allowed, \
                                tip_over_limit, invalid_reference, invalid_currency or currency_mismatch.
                                """,
                            parameters: [("body.terminalId", "terminals"), ("body.currency", "currencies"), ("body.amount", "amounts")],
                            positiveStatuses: ["2xx", "400", "401", "404"]),
                    ])
            ]

        case .backoffice:
            // A registered device on the first portal terminal, so terminal state, unlock and
            // unregister also answer about a terminal that has one; challenges waiting for the portal;
            // webhook events of every type, delivered (and failing) to a receiver on 127.0.0.1.
            _ = try host.sessionToken(fixtures)
            let challenges = try (1...3).map { try host.challenge(device: "conformance-portal-device-\($0)") }
            let events = try host.sampleWebhookEvents(merchant: defaultSampleMerchant(fixtures), fixtures)
            return [
                Pass(
                    name: "backoffice", filters: ["--include-tag", "backoffice"], authorization: fixtures.backOfficeKey,
                    dictionaries: [
                        "terminals": fixtures.terminals.map(\.id), "merchants": fixtures.merchants.map(\.id),
                        "challenges": challenges, "events": events, "callbacks": host.callbackURLs,
                    ],
                    settings: [
                        Settings(
                            operations: ["getWebhookEvent", "replayWebhookEvent"], reason: "Events the host wrote.",
                            parameters: [("path.eventId", "events")]),
                        Settings(
                            operations: ["listWebhookEvents"], reason: "The region's merchants.",
                            parameters: [("query.merchantId", "merchants")]),
                        Settings(
                            operations: ["listBackofficeTransactions", "exportBackofficeTransactions"],
                            reason: "The region's merchants and terminals.",
                            parameters: [("query.merchantId", "merchants"), ("query.terminalId", "terminals")]),
                        Settings(
                            operations: ["getBackofficeStatistics"],
                            reason: "fromDate after toDate is rightly 400 invalid_request: no JSON Schema keyword orders two parameters.",
                            parameters: [("query.merchantId", "merchants"), ("query.terminalId", "terminals")],
                            positiveStatuses: ["2xx", "400", "401"]),
                        Settings(
                            operations: ["emailRegistrationToken"],
                            reason: "What an e-mail address is, is the host's rule (as for every e-mail field): a schema-valid string is often 400.",
                            positiveStatuses: ["2xx", "400", "401", "404", "409", "410"]),
                        Settings(
                            operations: ["getMerchantWebhook"], reason: "The region's merchants.",
                            parameters: [("path.merchantId", "merchants")]),
                        Settings(
                            operations: ["updateMerchantWebhook"],
                            reason: """
                                The region's merchants; URLs on 127.0.0.1 (taken) and private or non-https ones (refused), \
                                so no endpoint leaves the machine. The callbackUrl rules (https, no private or loopback \
                                address but loopback on this flavour) are no schema's business: a schema-valid url is \
                                rightly 400 invalid_request.
                                """,
                            parameters: [("path.merchantId", "merchants"), ("body.url", "callbacks")],
                            positiveStatuses: ["2xx", "400", "401", "404"]),
                        Settings(
                            operations: ["getTerminalState", "unlockTerminal", "unregisterTerminal"],
                            reason: "The region's terminals.", parameters: [("path.terminalId", "terminals")]),
                        Settings(
                            operations: ["createBackofficeRegistrationToken"], reason: "The region's terminals.",
                            parameters: [("body.terminalId", "terminals")]),
                        Settings(
                            operations: ["confirmChallenge"], reason: "Waiting challenges, the region's terminals and merchants.",
                            parameters: [
                                ("body.challengeCode", "challenges"), ("body.terminalId", "terminals"),
                                ("body.merchantId", "merchants"),
                            ]),
                    ])
            ]

        case .sandbox:
            // Samples first: reset forgets the merchants' webhook settings. The merchant a sample
            // without merchantId is for has an endpoint on 127.0.0.1 (202); the others have none
            // (409 no_webhook_endpoint), as a host started alone has no default receiver.
            try host.setWebhook(merchant: defaultSampleMerchant(fixtures), url: host.webhookReceiver, fixtures)
            return [
                Pass(
                    name: "sandbox: sample webhooks", filters: ["--include-operation-id", "triggerWebhook"],
                    dictionaries: ["merchants": fixtures.merchants.map(\.id)],
                    settings: [
                        Settings(
                            operations: ["triggerWebhook"], reason: "The region's merchants, with and without an endpoint.",
                            parameters: [("body.merchantId", "merchants")])
                    ]),
                Pass(
                    name: "sandbox", filters: ["--include-tag", "sandbox", "--exclude-operation-id", "triggerWebhook"],
                    dictionaries: ["terminals": fixtures.terminals.map(\.id), "cards": ShippedCards.catalogue.names],
                    settings: [
                        Settings(
                            operations: ["seedHost"],
                            reason: """
                                A seed the schema allows may name a terminal, card or merchant the region does not have (400), \
                                or a terminal an earlier seed took (409).
                                """,
                            positiveStatuses: ["2xx", "400", "409"]),
                        Settings(
                            operations: ["queueCustomerTurn"],
                            reason: """
                                A turn the schema allows may name a card sandbox-data/cards.json lacks, or pair an action with \
                                a member it does not take (a tap without its card, a cancel with a PIN): 400; or a terminal the \
                                region lacks: 404. Half of the cards and terminals are drawn from the fixtures, so turns are \
                                queued too.
                                """,
                            parameters: [("body.card", "cards"), ("path.terminalId", "terminals")], positiveStatuses: ["2xx", "400", "404"]),
                    ]),
            ]
        }
    }

    @Test("the host answers as its OpenAPI document says", arguments: Surface.allCases)
    func surfaceConformsToTheDocument(_ surface: Surface) throws {
        _ = try Schemathesis.server()
        let host =
            try surface == .apm
            ? HostUnderTest(wallet: try Self.apmWallet())
            : surface == .blik ? HostUnderTest(region: Self.blikRegion, wallet: try Self.blikWallet()) : HostUnderTest()
        let fixtures = try Fixtures.load(region: host.hostRegion)
        for var pass in try Self.passes(surface, host: host, fixtures: fixtures) {
            try pass.prepare?(&pass)
            let started = Date()
            let outcome = try Schemathesis.run(
                against: host, filters: pass.filters, authorization: pass.authorization, dictionaries: pass.dictionaries,
                numbers: pass.numbers, settings: pass.settings)
            let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
            print("conformance: \(surface.rawValue): \(pass.name): \(outcome.passed ? "conforms" : "FAILED") in \(seconds) s")
            // CONFORMANCE_VERBOSE=1 shows schemathesis' whole report (warnings, counts) of passing runs too.
            if outcome.passed, ProcessInfo.processInfo.environment["CONFORMANCE_VERBOSE"] == "1" {
                print("command: \(outcome.commandLine)\n\(outcome.configuration)\n\(outcome.output)")
            }
            if !outcome.passed {
                Issue.record(
                    """
                    schemathesis found answers of the \(pass.name) pass that do not conform to openapi/environment-host.yaml \
                    (\(seconds) s, exit \(outcome.status.map(String.init) ?? "killed")).
                    command: \(outcome.commandLine)
                    \(outcome.output)
                    config file of this run:
                    \(outcome.configuration)
                    """)
            }
        }
    }

    // MARK: - The document itself

    /// Operations of the document as schemathesis loads them, after validating it against the
    /// OpenAPI 3.0 meta-schema that schemathesis ships.
    struct Operation: Decodable, Hashable {
        var method: String
        var path: String
        var tags: [String]
        var secured: Bool
        var hasBody: Bool
        var statuses: [String]
        var label: String { "\(method) \(path)" }
    }

    static func documentOperations() throws -> [Operation] {
        let script = """
            import json, sys
            import schemathesis
            schema = schemathesis.openapi.from_path(sys.argv[1])
            schema.validate()
            operations = []
            for result in schema.get_all_operations():
                operation = result.ok()
                definition = operation.definition.raw
                security = definition.get("security", schema.raw_schema.get("security", []))
                operations.append({
                    "method": operation.method.upper(), "path": operation.path,
                    "tags": definition.get("tags", []), "secured": bool(security),
                    "hasBody": "requestBody" in definition,
                    "statuses": sorted(definition.get("responses", {}).keys()),
                })
            json.dump(operations, sys.stdout)
            """
        _ = try Schemathesis.server()
        let python = try #require(onPath("python3"), "python3 is needed; run scripts/setup")
        let result = try Schemathesis.capture(
            [python.path, "-c", script, Paths.openAPI.appendingPathComponent("environment-host.yaml").path])
        guard result.status == 0 else {
            throw HarnessError("openapi/environment-host.yaml is not a valid OpenAPI 3.0 document:\n\(result.output)")
        }
        return try JSONDecoder().decode([Operation].self, from: Data(result.output.utf8))
    }

    /// `METHOD /path` of a contract: every row of its endpoint tables (a query string left out) and,
    /// with `prose`, every endpoint it names in backticks elsewhere (`POST /terminal/v1/reader/prepare`
    /// in a list, `POST /merchant/v1/checkouts {…}` in a sentence), an abbreviated one included when
    /// exactly one path it names ends so (`GET …/webhook` beside `PUT /backoffice/v1/merchants/{merchantId}/webhook`).
    ///
    /// With `section` (`## Host API`), only that section is read, up to the next `## ` heading.
    static func contractEndpoints(_ document: String, prose: Bool = false, section: String? = nil) throws -> Set<String> {
        var text = try String(contentsOf: Paths.repository.appendingPathComponent(document), encoding: .utf8)
        if let section {
            guard let start = text.range(of: "\n" + section + "\n") else { throw HarnessError("\(document) has no section \(section)") }
            let rest = text[start.upperBound...]
            text = String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
        }
        let row = try NSRegularExpression(pattern: #"^\| `(GET|POST|PUT|DELETE|PATCH) (/[^`?]*)[^`]*`"#, options: .anchorsMatchLines)
        let mention = try NSRegularExpression(pattern: #"`(GET|POST|PUT|DELETE|PATCH) (/[^`?\s]*)[^`]*`"#)
        let abbreviated = try NSRegularExpression(pattern: #"`(GET|POST|PUT|DELETE|PATCH) (?:…|\.\.\.)(/[^`?\s]*)[^`]*`"#)
        func pairs(_ pattern: NSRegularExpression) -> [(method: String, path: String)] {
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                (String(text[Range($0.range(at: 1), in: text)!]), String(text[Range($0.range(at: 2), in: text)!]))
            }
        }
        let named = (prose ? [row, mention] : [row]).flatMap(pairs)
        var endpoints = Set(named.map { "\($0.method) \($0.path)" })
        if prose {
            let paths = Set(named.map(\.path))
            for (method, suffix) in pairs(abbreviated) {
                let candidates = paths.filter { $0.hasSuffix(suffix) }
                if candidates.count == 1, let path = candidates.first { endpoints.insert("\(method) \(path)") }
            }
        }
        return endpoints
    }

    @Test("the document is valid OpenAPI 3.0 and describes exactly the contracts' endpoints")
    func documentMatchesTheContract() throws {
        let operations = try Self.documentOperations()
        let documented = Set(operations.map(\.label))
        let lifecycle = try Self.contractEndpoints("docs/terminal-lifecycle.md")
        let payments = try Self.contractEndpoints("docs/card-payments.md", prose: true)
        let webhooks = try Self.contractEndpoints("docs/webhooks.md", prose: true)
        // Only its "Host API" section: the other endpoints it names are the wallet's (openapi/wallet.yaml).
        let qr = try Self.contractEndpoints("docs/qr-payments.md", section: "## Host API")
        #expect(qr.count >= 5, "read too few endpoints from docs/qr-payments.md: \(qr.sorted())")
        // Its "Host and wallet" section's terminal API table (the host → wallet rows are the wallet's).
        let blik = try Self.contractEndpoints("docs/blik.md", section: "## Host and wallet")
        #expect(blik.count >= 4, "read too few endpoints from docs/blik.md: \(blik.sorted())")
        #expect(lifecycle.count >= 28, "read too few endpoints from docs/terminal-lifecycle.md: \(lifecycle.sorted())")
        #expect(payments.count >= 17, "read too few endpoints from docs/card-payments.md: \(payments.sorted())")
        #expect(webhooks.count >= 7, "read too few endpoints from docs/webhooks.md: \(webhooks.sorted())")
        let contract = lifecycle.union(payments).union(webhooks).union(qr).union(blik)
        let platform: Set = ["GET /healthz", "GET /v1/environment", "GET /openapi.yaml"]
        #expect(contract.subtracting(documented).isEmpty, "contract endpoints the document lacks: \(contract.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(contract).subtracting(platform).isEmpty,
            "documented operations no contract has: \(documented.subtracting(contract).subtracting(platform).sorted())")
    }

    /// The tag of a path's surface.
    static func surface(of path: String) -> String {
        let prefixes: [(String, String)] = [
            ("/terminal/v1/transactions", "payments"), ("/terminal/v1/reader/", "payments"),
            ("/terminal/v1/statistics", "payments"), ("/terminal/v1/apm/", "apm"), ("/terminal/v1/", "terminal"),
            ("/provider/v1/", "provider"), ("/merchant/v1/", "merchant"),
            ("/backoffice/v1/", "backoffice"), ("/_sandbox/", "sandbox"), ("/receipts/", "receipts"),
        ]
        return prefixes.first { path.hasPrefix($0.0) }?.1 ?? "platform"
    }

    @Test("every operation has its surface's tag, its credential's 401 and its body's 400")
    func operationsAreTaggedAndDocumentTheirErrors() throws {
        for operation in try Self.documentOperations() {
            let surface = Self.surface(of: operation.path)
            #expect(operation.tags == [surface], "\(operation.label) is tagged \(operation.tags), not [\(surface)]")
            if operation.secured {
                #expect(operation.statuses.contains("401"), "\(operation.label) takes a credential but documents no 401")
            }
            if operation.hasBody {
                #expect(operation.statuses.contains("400"), "\(operation.label) takes a body but documents no 400")
                #expect(operation.statuses.contains("415"), "\(operation.label) takes a JSON body but documents no 415")
            }
            if surface == "merchant" || surface == "backoffice" || surface == "payments" || surface == "apm" {
                #expect(operation.secured, "\(operation.label) has no security requirement")
            }
            #expect(operation.statuses.contains { $0.hasPrefix("2") }, "\(operation.label) documents no success")
        }
    }
}
