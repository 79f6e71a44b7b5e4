import CommandLineSupport
import DeviceTransport
import Foundation
import MoneiTapToPay
import SandboxWire
import SimulatedReader
import TapOnMobileSandbox

/// `tapsim monei token|prepare|pay`: MONEI's Tap to Pay SDK (`MoneiTapToPay`) on the command line,
/// against the MONEI host of `sandbox up` (docs/monei.md).
///
/// `token` is what the merchant's backend does (`POST /v1/pos/auth-token` with the account's API
/// key from `sandbox-data/merchants.json`). `prepare` and `pay` are the app: each invocation is one
/// launch, and the SDK keeps its token in memory only, so `prepare` saves the token where the app
/// keeps it (`monei.json` in the device folder) and `pay` prepares again with it, as the seed asks
/// an app to do after each launch.
enum Monei {
    static let token = Command(
        "monei token", "Asks the MONEI host for a POS token with the account's API key, as your backend does, and prints it.",
        region: TapToPaySandbox.region,
        options: [
            Opt.merchant.help("The MONEI account (MONEI-M01, MONEI-M02: sandbox-data/merchants.json; default: the first)."),
            Opt.store.help("The store (sandbox-data/monei.json; default: the account's first)."),
            Opt.pos.help("The point of sale (a terminal of the store; default: the store's first)."),
        ],
        examples: [
            "tapsim monei token",
            "tapsim --json monei token --merchant MONEI-M01 --store store_giralda_triana",
        ]
    ) { context, options in
        let key = try context.apiKey(merchant: options[Opt.merchant])
        var body: [String: String] = [:]
        if let store = options[Opt.store] { body["storeId"] = store }
        if let pos = options[Opt.pos] { body["pointOfSaleId"] = pos }
        let token = try await context.backend("/v1/pos/auth-token", key: key, body: body, as: MoneiBodies.AuthToken.self).token
        return Report([("token", .string(token))], lines: ["POS token (valid 24 h on the host's clock):", token])
    }

    static let prepare = Command(
        "monei prepare", "TapToPay.prepare(token:): location, the token checked by MONEI, the reader prepared; keeps the token for 'monei pay'.",
        region: TapToPaySandbox.region,
        options: [
            Opt.token.help("The POS token ('tapsim monei token'); required."),
        ],
        examples: [
            #"tapsim monei prepare --token "$(tapsim --field token monei token)""#,
        ]
    ) { context, options in
        let token = try options.required(Opt.token)
        await context.launch(card: nil)
        try await TapToPay.prepare(token: token)
        try context.saveToken(token)
        return Report(
            [("prepared", true), ("deviceDirectory", .string(context.deviceDirectory.path))],
            lines: ["Prepared: the reader is ready; 'tapsim monei pay' uses this token (kept in \(context.stateFile.path))."])
    }

    static let pay = Command(
        "monei pay", "TapToPay.acceptPayment(amount:orderId:callbackUrl:): the customer taps a test card; prints the PaymentResult or the TapToPayError.",
        region: TapToPaySandbox.region,
        options: [
            Opt.amount.help("Euro cents, more than 0 (1050 is 10.50 EUR); 42.XX amounts pick the issuer's answer (4205 declines)."),
            Opt.orderID.help("Your order reference; not empty, new for each order."),
            Opt.callbackURL.help("Where MONEI posts the signed payment callback (without it: the account's webhook or the inbox)."),
            Opt.card.help("The test card the customer taps (cards.json; default: the Spanish one, visa-es)."),
            Opt.cancel.help("The customer closes the card screen instead of tapping: TapToPayError.cancelled."),
            Opt.token.help("Prepare with this POS token first (default: the one 'monei prepare' kept)."),
        ],
        examples: [
            #"tapsim monei prepare --token "$(tapsim --field token monei token)" && tapsim monei pay --amount 1050 --order-id order-1"#,
            "tapsim monei pay --amount 4205 --order-id order-2   # declined by the issuer: a result, exit 0",
            "tapsim --json monei pay --amount 1050 --order-id order-3 --callback-url http://127.0.0.1:8111/hooks/MONEI/MONEI-M01",
        ]
    ) { context, options in
        let amount = try options.required(Opt.amount)
        let orderId = try options.required(Opt.orderID)
        var callbackUrl: URL?
        if let text = options[Opt.callbackURL] {
            guard let url = URL(string: text), url.scheme != nil else { throw UsageError("--callback-url must be a URL, not '\(text)'") }
            callbackUrl = url
        }
        let card = options[Opt.cancel] ? nil : try context.card(named: options[Opt.card], country: "ES")
        guard let token = options[Opt.token] ?? context.savedToken() else {
            throw UsageError("no POS token: run 'tapsim monei prepare --token TOKEN' first, or give --token")
        }
        await context.launch(card: card)
        // A new launch of the app: the seed's prepare after each launch, with the token the app kept.
        try await TapToPay.prepare(token: token)
        let result = try await TapToPay.acceptPayment(amount: amount, orderId: orderId, callbackUrl: callbackUrl)
        let status = result.status == .approved ? "approved" : "declined"
        let shown = [result.cardBrand, result.last4.map { "•••• \($0)" }].compactMap { $0 }.joined(separator: " ")
        return Report(
            [("paymentId", .string(result.paymentId)), ("status", .string(status)), ("cardBrand", JSONValue(result.cardBrand)),
             ("last4", JSONValue(result.last4)), ("orderId", .string(result.orderId))],
            lines: ["Payment \(result.paymentId) \(status): \(shown.isEmpty ? "card" : shown), order \(result.orderId)"])
    }
}

/// MONEI's part of a vendor context: the app's launch, the backend's API key, where the app keeps its token.
extension VendorContext {
    var stateFile: URL { deviceDirectory.appendingPathComponent("monei.json") }

    /// Starts the app: the host of `endpoints.json`, the reader's waits skipped (unless `--real-time`),
    /// and the customer tapping `card`, or closing the card screen when `card` is nil.
    @MainActor
    func launch(card: TestCard?) {
        var sandbox = TapToPaySandbox()
        sandbox.endpoint = host
        sandbox.clock = readerClock
        sandbox.cardScripts = { _ in card.map { .tap($0) } ?? .cancel(after: 1) }
        TapToPaySandbox.launch(sandbox)
    }

    /// The API key of `merchant` (or the region's first account) from `merchants.json`.
    func apiKey(merchant: String?) throws(UsageError) -> String {
        let data = try SandboxData.locate(explicit: globals.sandboxData)
        let merchants = try data.region(region).merchants
        guard let chosen = merchant.map({ id in merchants.first { $0.id == id } }) ?? merchants.first else {
            throw UsageError("--merchant must be one of \(merchants.map(\.id).joined(separator: ", ")), not '\(merchant ?? "")'")
        }
        guard let key = chosen.apiKey else { throw UsageError("\(data.directory.path)/merchants.json gives \(chosen.id) no apiKey") }
        return key
    }

    /// A call of the merchant's backend: `Authorization: <API key>`, a JSON body, MONEI's error body.
    func backend<Answer: Decodable & Sendable>(_ path: String, key: String, body: [String: String], as type: Answer.Type) async throws -> Answer {
        let client = JSONClient(baseURL: host, timeout: 15, userAgent: "tapsim")
        switch await client.send("POST", path, body: body, headers: ["Authorization": key], as: type) {
        case .value(let answer):
            return answer
        case .failed(let failure):
            throw Failure(api: nil, code: "unreachable", message: failure.message)
        case .invalidURL(let message), .unencodable(let message):
            throw Failure(api: nil, code: "unreachable", message: message)
        case .undecodable(let status, _):
            throw Failure(api: status, code: "invalid_response", message: "\(path): the answer does not decode")
        case .refused(let status, _, let data):
            let error = try? JSONDecoder().decode(MoneiBodies.Error.self, from: data)
            throw Failure(api: status, code: error?.code ?? "http_\(status)", message: "MONEI: " + (error?.message ?? "HTTP \(status)"))
        }
    }

    // MARK: - Where the app keeps its token between launches

    private struct MoneiState: Codable {
        var token: String
    }

    func saveToken(_ token: String) throws {
        try writePrivate(try JSONEncoder().encode(MoneiState(token: token)), to: "monei.json")
    }

    func savedToken() -> String? {
        FileManager.default.contents(atPath: stateFile.path).flatMap { try? JSONDecoder().decode(MoneiState.self, from: $0) }?.token
    }
}

extension Failure {
    /// A `TapToPayError`, in the exit-code categories of tapsim (docs/monei.md, "tapsim").
    init(monei error: TapToPayError, context: [(String, JSONValue)] = []) {
        let (kind, code, category, message): (String, String, TapOnMobileError.Category, String)
        var orderId: String?
        switch error {
        case .notSupported: (kind, code, category, message) = ("notSupported", "not_supported", .cardReaderSession, "This iPhone does not support Tap to Pay on iPhone (iPhone XS or newer, iOS 18.5 or later).")
        case .locationDenied: (kind, code, category, message) = ("locationDenied", "location_denied", .location, "Location access is not allowed.")
        case .termsDeclined: (kind, code, category, message) = ("termsDeclined", "terms_declined", .cardReaderSession, "Apple's Tap to Pay on iPhone terms were not accepted.")
        case .invalidArgument: (kind, code, category, message) = ("invalidArgument", "invalid_argument", .validation, "MONEI refused the amount or the orderId.")
        case .tokenExpired: (kind, code, category, message) = ("tokenExpired", "token_expired", .session, "The POS token expired: get a new one ('tapsim monei token') and prepare again.")
        case .invalidToken: (kind, code, category, message) = ("invalidToken", "invalid_token", .session, "MONEI does not know this POS token.")
        case .notPrepared: (kind, code, category, message) = ("notPrepared", "not_prepared", .cardReaderSession, "Not prepared: run 'tapsim monei prepare --token TOKEN' first.")
        case .busy: (kind, code, category, message) = ("busy", "busy", .transaction, "A payment is running on this point of sale.")
        case .cancelled: (kind, code, category, message) = ("cancelled", "cancelled", .transaction, "The card screen was closed: no card was read.")
        case .sdkUpgradeRequired: (kind, code, category, message) = ("sdkUpgradeRequired", "sdk_upgrade_required", .initialization, "MONEI asks for a newer SDK.")
        case .outcomeUnknown(let order):
            orderId = order
            (kind, code, category, message) = ("outcomeUnknown", "outcome_unknown", .network, "The card was read and the outcome is unknown (the card can be charged): do not retry; check order \(order) in MONEI.")
        case .paymentFailed(let reason):
            let name: String
            switch reason {
            case .cardDeclined: name = "cardDeclined"
            case .readerNotReady: name = "readerNotReady"
            case .locationTimeout: name = "locationTimeout"
            default: name = "unknown"
            }
            (kind, code, category, message) = ("paymentFailed", name, reason == .locationTimeout ? .location : .transaction, "The payment could not be taken (\(name)); no card was charged.")
        @unknown default: (kind, code, category, message) = ("unknown", "unknown", .transaction, "\(error)")
        }
        self.init(
            json: [
                "category": "monei", "kind": .string(kind), "code": .string(code), "orderId": JSONValue(orderId), "message": .string(message),
                "exitCode": .int(Int(category.exitCode)),
            ],
            line: "monei.\(kind) [\(code)]: \(message) (exit \(category.exitCode))", exitCode: category.exitCode, context: context)
    }

    /// A refusal of MONEI's server API (what the merchant's backend calls).
    init(api status: Int?, code: String, message: String) {
        let category: TapOnMobileError.Category =
            switch status {
            case nil: .network
            case 401?: .session
            case 400?, 404?, 422?: .validation
            default: .network
            }
        self.init(
            json: [
                "category": "monei", "kind": "api", "code": .string(code), "status": JSONValue(status), "message": .string(message),
                "exitCode": .int(Int(category.exitCode)),
            ],
            line: "monei.api [\(code)\(status.map { " \($0)" } ?? "")]: \(message) (exit \(category.exitCode))", exitCode: category.exitCode)
    }
}
