import CommandLineSupport
import DeviceTransport
import Foundation
import Payments
import SandboxWire
import SimulatedReader
import Synchronization
import TapToPayHardware

/// `tapsim geopagos token|pay|refund|cancel`: Geopagos' Payments SDK with its Tap to Pay reader
/// (`Payments`, `TapToPayHardware`) on the command line, against the GEOPAGOS host of `sandbox up`
/// (docs/geopagos.md).
///
/// `token` is what the merchant's backend does (`POST /merchant/v1/reader-tokens` with the
/// merchant's API key from `sandbox-data/merchants.json`). `pay`, `refund` and `cancel` are one
/// launch of the app each: its installer's token provider buys a token the same way, the reader
/// connects, and one transaction intent runs with the listener answering as the flags say.
enum Geopagos {
    static let region = "GEOPAGOS"

    static let token = Command(
        "geopagos token", "Buys a reader token for a terminal with the merchant's API key, as your backend does, and prints it.",
        region: region,
        options: [
            Opt.merchant.help("The merchant (GEOPAGOS-M01, GEOPAGOS-M02: sandbox-data/merchants.json; default: the first)."),
            Opt.terminalID.help("A terminal of the merchant (default: its first)."),
        ],
        examples: [
            "tapsim geopagos token",
            "tapsim --json geopagos token --merchant GEOPAGOS-M01 --terminal GEOPAGOS-T0102",
        ]
    ) { context, options in
        let token = try await context.readerToken(merchant: options[Opt.merchant], terminal: options[Opt.terminalID])
        return Report(
            [("token", .string(token.token)), ("terminalId", .string(token.terminalId)), ("country", .string(token.country)),
             ("currency", .string(token.currency)), ("expiresAt", .string(token.expiresAt))],
            lines: ["Reader token for \(token.terminalId) (\(token.country), \(token.currency)), valid until \(token.expiresAt):", token.token])
    }

    static let transactionOptions: [any OptionDeclaring] = [
        Opt.card.help("The test card the customer taps (cards.json; default: the Argentine one, visa-ar)."),
        Opt.merchant.help("Whose API key buys the reader token (default: the region's first merchant)."),
        Opt.terminalID.help("The terminal the token names (default: the merchant's first)."),
        Opt.noTap.help("Nobody taps: Apple's card screen times out after 40 s (a recoverable error tapsim does not recover)."),
    ]

    static let pay = Command(
        "geopagos pay", "A .payment intent: the reader connects, the customer taps, the listener confirms; prints TransactionApproved.",
        region: region,
        options: [
            Opt.amount.help("ARS in centavos, as every tapsim amount (10000 is 100,00 ARS); 42XX picks the issuer's answer (4205 declines)."),
            Opt.installments.help("Installments (cuotas) the confirmation asks for, 1 to 24 (default: 1)."),
            Opt.reference.help("The merchant's reference, kept on the transaction."),
        ] + transactionOptions,
        examples: [
            "tapsim geopagos pay --amount 10000",
            "tapsim geopagos pay --amount 250050 --card mc-ar --installments 3",
            "tapsim geopagos pay --amount 4205   # declined by the issuer (nonRecoverableError declined(05)): DECLINED, still exit 0",
        ]
    ) { context, options in
        let installments = options[Opt.installments] ?? 1
        return try await context.runIntent(
            .payment, options: options, confirm: .payment(PaymentConfirmation(installments: installments, reference: options[Opt.reference])))
    }

    static let refund = Command(
        "geopagos refund", "A .refund intent: the customer taps the card again; the refund names the payment (no longer cancellable).",
        region: region,
        options: [
            Opt.transaction.help("The payment to refund; required."),
            Opt.amount.help("ARS in centavos, at most the payment's amount."),
        ] + transactionOptions,
        examples: [
            #"SALE=$(tapsim --field transactionId geopagos pay --amount 10000) && tapsim geopagos refund --transaction "$SALE" --amount 10000   # within 30 min: transaction_still_cancellable, exit 14"#,
        ]
    ) { context, options in
        let original = try options.required(Opt.transaction)
        return try await context.runIntent(.refund, options: options, confirm: .refund(RefundConfirmation(originalTransactionId: original)))
    }

    static let cancel = Command(
        "geopagos cancel", "A .cancel intent: the customer taps the payment's card again; the whole payment is undone (within 30 minutes).",
        region: region,
        options: [
            Opt.transaction.help("The payment to cancel; required."),
            Opt.amount.help("The payment's whole amount in centavos."),
        ] + transactionOptions,
        examples: [
            #"SALE=$(tapsim --field transactionId geopagos pay --amount 10000) && tapsim geopagos cancel --transaction "$SALE" --amount 10000"#,
        ]
    ) { context, options in
        let original = try options.required(Opt.transaction)
        return try await context.runIntent(.cancel, options: options, confirm: .cancel(CancelConfirmation(transactionId: original)))
    }
}

/// How tapsim's listener answers the confirm step.
enum GeopagosConfirmation: Sendable {
    case payment(PaymentConfirmation)
    case refund(RefundConfirmation)
    case cancel(CancelConfirmation)
}

/// The app of one `tapsim geopagos` invocation: it answers every state, and keeps the last one.
final class GeopagosListener: SDKTransactionListener, @unchecked Sendable {
    let device: Payments.Device
    let readConfig: ReadConfig
    let confirmation: GeopagosConfirmation
    private var continuation: CheckedContinuation<Result<TransactionApproved, GeopagosFailure>, Never>?
    var intent: TransactionIntent?

    init(device: Payments.Device, readConfig: ReadConfig, confirmation: GeopagosConfirmation) {
        self.device = device
        self.readConfig = readConfig
        self.confirmation = confirmation
    }

    /// Runs `type` until approved or ended.
    func run(_ type: Payments.TransactionType) async -> Result<TransactionApproved, GeopagosFailure> {
        await withCheckedContinuation { continuation in
            self.continuation = continuation
            TransactionIntentFactory.createTransactionIntent(type: type, listener: self) { result in
                switch result {
                case .success(let intent): self.intent = intent
                case .failure(let error): self.finish(.failure(GeopagosFailure(error: nil, message: "\(error)")))
                }
            }
        }
    }

    private func finish(_ result: Result<TransactionApproved, GeopagosFailure>) {
        continuation?.resume(returning: result)
        continuation = nil
    }

    func onReaderStateChanged(state: Payments.ReaderState) {}

    func onTransactionStateChanged(state: SDKTransactionState) {
        switch state {
        case .provideDevice(let provide): provide(device)
        case .provideReadConfig(let provide): provide(readConfig)
        case .selectEMVApp(let apps, let select): if let first = apps.first { select(first) }
        case .confirmPayment(_, let confirm, let reject):
            if case .payment(let data) = confirmation { confirm(data) } else { reject() }
        case .confirmRefund(_, let confirm, let reject):
            if case .refund(let data) = confirmation { confirm(data) } else { reject() }
        case .confirmCancel(_, let confirm, let reject):
            if case .cancel(let data) = confirmation { confirm(data) } else { reject() }
        case .approved(let approved): finish(.success(approved))
        case .recoverableError(let error, _):
            // tapsim is nobody in front of the screen: a paused transaction ends here.
            intent?.abort()
            finish(.failure(GeopagosFailure(error: error, message: "The card screen timed out after 40 s and nobody tapped Try Again.")))
        case .nonRecoverableError(let error, let message): finish(.failure(GeopagosFailure(error: error, message: message)))
        @unknown default: break
        }
    }
}

/// The terminal of the last token the provider handed over.
final class TerminalSeen: Sendable {
    private let terminal = Mutex<String?>(nil)
    func set(_ id: String) { terminal.withLock { $0 = id } }
    var value: String? { terminal.withLock { $0 } }
}

/// A transaction that ended without approval.
struct GeopagosFailure: Error {
    let error: Payments.TransactionError?
    let message: String?
}

/// Geopagos' part of a vendor context: the backend's reader tokens and one launch of the app.
extension VendorContext {
    /// `POST /merchant/v1/reader-tokens` with the merchant's API key.
    func readerToken(merchant: String?, terminal: String?) async throws -> ReaderToken {
        let key = try apiKey(merchant: merchant)
        let client = JSONClient(baseURL: host, timeout: 15, userAgent: "tapsim")
        switch await client.send("POST", "/merchant/v1/reader-tokens", body: ReaderTokenRequest(terminalId: terminal), bearer: key, as: ReaderToken.self) {
        case .value(let token):
            return token
        case .failed(let failure):
            throw Failure(geopagos: nil, code: "unreachable", message: failure.message, exitCode: 16)
        case .invalidURL(let message), .unencodable(let message):
            throw Failure(geopagos: nil, code: "unreachable", message: message, exitCode: 16)
        case .undecodable:
            throw Failure(geopagos: nil, code: "invalid_response", message: "the reader token does not decode", exitCode: 16)
        case .refused(let status, let envelope, _):
            throw Failure(
                geopagos: nil, code: envelope?.error.code.rawValue ?? "http_\(status)", message: envelope?.error.message ?? "HTTP \(status)",
                exitCode: status == 401 ? 13 : 17)
        }
    }

    /// One launch: an installer whose token provider buys tokens, the SDK configured on the host,
    /// then one intent of `type`.
    func runIntent(_ type: Payments.TransactionType, options: ParsedArguments, confirm: GeopagosConfirmation) async throws -> Report {
        // tapsim's amounts are minor units; the SDK's Money is major units.
        let centavos = try options.required(Opt.amount)
        let amount = try Money(amount: Decimal(centavos) / 100, currency: .ars)
        let card = options[Opt.noTap] ? nil : try self.card(named: options[Opt.card], country: "AR")
        var sandbox = GeopagosSandbox()
        sandbox.clock = readerClock
        sandbox.deviceId = try geopagosDeviceID()
        sandbox.accountLinked = true
        sandbox.cardScripts = { _ in card.map { .tap($0) } ?? .noTap() }
        GeopagosSandbox.current = sandbox
        let (merchant, terminal) = (options[Opt.merchant], options[Opt.terminalID])
        let tokens = TerminalSeen()
        let installer = TapToPayReaderInstaller(
            tokenProvider: { reason in
                guard case .setup = reason, let token = try? await self.readerToken(merchant: merchant, terminal: terminal) else {
                    return .cancel
                }
                tokens.set(token.terminalId)
                return .provide(token.token, requiresRelink: false)
            },
            onAccountLinkingRequired: { _ in .confirm }, onReaderNotice: { _ in })
        PaymentsSDK.configure(paymentsConfiguration: try PaymentsConfiguration.Builder(endpoint: host, readerInstallers: [installer]).build())
        let listener = GeopagosListener(
            device: installer.device,
            readConfig: ReadConfig(readModes: [.nfc], timeout: 40, transactionTotal: TransactionTotal(gross: amount)), confirmation: confirm)
        switch await listener.run(type) {
        case .success(let approved):
            let fields: [(String, JSONValue)] = [
                ("transactionId", .string(approved.transactionId)), ("type", .string(approved.type.rawValue)),
                ("status", .string(approved.status)), ("amount", .int(approved.amount.minorUnits)), ("currency", .string(approved.amount.currency.code)),
                ("authorizationCode", JSONValue(approved.authorizationCode)), ("cardBrand", .string(approved.card.brand)),
                ("last4", .string(approved.card.last4)), ("installments", .int(approved.installments)),
                ("terminalId", JSONValue(tokens.value)),
            ]
            return Report(
                fields,
                lines: ["Approved \(approved.type.rawValue) \(approved.transactionId): \(Format.amount(approved.amount.minorUnits, code: "ARS")) \(approved.card.brand) •••• \(approved.card.last4), \(approved.status), auth \(approved.authorizationCode ?? "-")"])
        case .failure(let failure):
            // A declined card is an answer, as for every tapsim payment (exit 0); the SDK reports it as an error.
            if case .declined(let issuer)? = failure.error {
                let message = failure.message ?? "Declined by the issuer."
                return Report(
                    [("type", .string(type.rawValue)), ("status", "DECLINED"), ("code", .string(issuer)), ("message", .string(message)),
                     ("amount", .int(centavos)), ("currency", "ARS"), ("terminalId", JSONValue(tokens.value))],
                    lines: ["Declined \(type.rawValue) of \(Format.amount(centavos, code: "ARS")): nonRecoverableError declined(\(issuer)), \(message)"])
            }
            throw Failure(geopagos: failure.error, code: nil, message: failure.message ?? "the transaction ended", exitCode: nil)
        }
    }

    /// The app installation's id, kept in the device folder (`geopagos.json`) so every launch is one device.
    private func geopagosDeviceID() throws -> String {
        struct State: Codable { var deviceId: String }
        let file = deviceDirectory.appendingPathComponent("geopagos.json")
        if let data = FileManager.default.contents(atPath: file.path), let state = try? JSONDecoder().decode(State.self, from: data) {
            return state.deviceId
        }
        let id = "geopagos-" + UUID().uuidString.lowercased()
        try writePrivate(try JSONEncoder().encode(State(deviceId: id)), to: "geopagos.json")
        return id
    }
}

extension Failure {
    /// A transaction error of the Payments SDK, or a refusal of the backend's call (`error` nil, with
    /// `code` and `exitCode`), in tapsim's exit-code categories: 11 the reader, 13 a refused API key,
    /// 14 a transaction without approval (but a declined card, which `runIntent` answers), 16 the
    /// network, 17 a request the host or reader cannot take.
    init(geopagos error: Payments.TransactionError?, code apiCode: String?, message: String, exitCode apiExit: Int32?) {
        let (kind, code, exit): (String, String, Int32)
        switch error {
        case .declined(let issuer)?: (kind, code, exit) = ("declined", issuer, 14)
        case .refused(let host)?: (kind, code, exit) = ("refused", host, 14)
        case .cardReadTimeout?: (kind, code, exit) = ("cardReadTimeout", "card_read_timeout", 14)
        case .cardReadCancelled?: (kind, code, exit) = ("cardReadCancelled", "card_read_cancelled", 14)
        case .cardDataExpired?: (kind, code, exit) = ("cardDataExpired", "card_data_expired", 14)
        case .rejected?: (kind, code, exit) = ("rejected", "rejected", 14)
        case .aborted?: (kind, code, exit) = ("aborted", "aborted", 14)
        case .invalidReadConfig?: (kind, code, exit) = ("invalidReadConfig", "invalid_read_config", 17)
        case .readerNotConnected?: (kind, code, exit) = ("readerNotConnected", "reader_not_connected", 11)
        case .deviceNotFound?: (kind, code, exit) = ("deviceNotFound", "device_not_found", 11)
        case .connectionFailed?: (kind, code, exit) = ("connectionFailed", "connection_failed", 16)
        case nil: (kind, code, exit) = ("api", apiCode ?? "unknown", apiCode == nil ? 16 : 17)
        }
        let exitCode = apiExit ?? exit
        self.init(
            json: [
                "category": "geopagos", "kind": .string(kind), "code": .string(code), "message": .string(message), "exitCode": .int(Int(exitCode)),
            ],
            line: "geopagos.\(kind) [\(code)]: \(message) (exit \(exitCode))", exitCode: exitCode)
    }
}
