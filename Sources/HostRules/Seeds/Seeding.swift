import HostStorage
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxStore
import SandboxWire

/// `POST /_sandbox/seed`: one region's part of a seed (``HostSeed``) applied in one write, or
/// refused whole with the path of its first bad field: devices registered (and logged in) on
/// free terminals, payments in the terminals' history before the sandbox clock's now, and
/// merchants' webhook endpoints.
///
/// Seeded payments are history: they send no webhook and hold no terminal busy; each is what the
/// host itself would have kept for such a payment (card, authorisation code, response), so the
/// history, the back office, refunds of them and the statistics read them as any other.
///
/// Seeded QR orders are not history: each is made as a device's `doQRPayment` makes one, its order
/// at the wallet and the terminal busy until it is final. The wallet is called outside the write,
/// so the whole seed is checked first, the orders are made, then the rest is written; when any of
/// that fails, the orders made are taken back (and closed at the wallet).
package struct Seeding {
    package let lifecycle: Lifecycle
    package let payments: CardPayments
    package let outbox: Outbox
    package let apm: APMPayments

    /// Why a seed is refused: the first bad field's path (`devices[0].terminalId`) and what is wrong.
    package struct Refusal: Error, Equatable {
        package let field: String
        package let message: String
        /// 409 and its code when the host's state is in the way; else 400 `invalid_request`.
        package var conflict: ErrorCode? = nil
    }

    /// The statuses a seeded payment may rest in, by method.
    package static let cardStatuses: [TransactionStatus] = [
        .CLEARED, .DECLINED, .REFUNDED, .CANCELLED, .REJECTED, .TIMEOUT, .USER_CANCELLED, .ERROR, .TERMINAL_DECLINED,
    ]
    package static let walletStatuses: [TransactionStatus] = [.CLEARED, .DECLINED, .TIMEOUT, .USER_CANCELLED]
    /// Seeded history reaches back at most a year.
    package static let longestAgo = 366 * 86_400
    package static let defaultModel = "iPhone15,2"

    /// The answer to a dry run: everything was checked against the host's state, nothing was kept.
    private struct DryRun: Error {
        package let result: SeedResult
    }

    /// Applies `seed`, or with `dryRun` checks it as applying would and keeps nothing.
    ///
    /// - Throws: ``Refusal`` for the first bad field; nothing was written then.
    package func apply(_ seed: HostSeed, dryRun: Bool = false) throws -> SeedResult {
        let orders = try (seed.qrOrders ?? []).enumerated().map { try qrOrder($1, at: "qrOrders[\($0)]", seed.qrOrders ?? []) }
        if dryRun || orders.isEmpty { return try write(seed, orders: orders, dryRun: dryRun) }
        _ = try write(seed, orders: orders, dryRun: true)
        var made: [SeedResult.QROrder] = []
        do {
            for order in orders {
                guard let opened = try apm.create(on: order.terminal, order.body, key: nil).made else { continue }
                made.append(.init(terminalId: order.terminal.terminalId, transactionId: opened.id, brand: order.body.brand.rawValue, payUrl: opened.payUrl))
            }
            var result = try write(seed, orders: [], dryRun: false)
            result.qrOrders = made
            return result
        } catch {
            let now = lifecycle.now()
            for order in made { try? apm.abandon(id: order.transactionId, closing: true, at: now) }
            throw error
        }
    }

    /// The seed's one write (or its dry run): devices, transactions, webhooks, and the check that
    /// each QR order's terminal has nothing in flight.
    private func write(_ seed: HostSeed, orders: [QROrder], dryRun: Bool) throws -> SeedResult {
        // Resolving a webhook URL's host may wait on DNS: done before the writer is taken.
        let urlRefusals = (seed.webhooks ?? []).map { $0.url.flatMap(outbox.refusal(of:)) }
        let now = lifecycle.now()
        do {
            return try lifecycle.write { db in
                for order in orders {
                    try payments.expireStale(db, terminal: order.terminal.terminalId, at: now)
                    if try payments.inFlight(db, terminal: order.terminal.terminalId) {
                        throw Refusal(
                            field: order.path + ".terminalId",
                            message: "Terminal \(order.terminal.terminalId) has a payment in progress: it takes a QR order once that one is final.",
                            conflict: .terminalBusy)
                    }
                }
                let result = SeedResult(
                    region: lifecycle.region.id,
                    devices: try (seed.devices ?? []).enumerated().map { try device($1, at: "devices[\($0)]", seed.devices ?? [], db, now) },
                    transactions: try transactions(seed.transactions ?? [], db, now),
                    webhooks: try webhooks(seed.webhooks ?? [], refusals: urlRefusals, db, now),
                    qrOrders: orders.isEmpty ? nil : [])
                if dryRun { throw DryRun(result: result) }
                return result
            }
        } catch let dry as DryRun {
            return dry.result
        }
    }

    // MARK: - QR orders

    /// A seeded QR order, checked as `doQRPayment` checks one.
    package struct QROrder {
        package let path: String
        package let terminal: TerminalInfo
        package let body: APMBodies.Payment
    }

    private func qrOrder(_ seeded: HostSeed.QROrder, at path: String, _ all: [HostSeed.QROrder]) throws -> QROrder {
        guard let terminal = lifecycle.directory.infos[seeded.terminalId] else {
            throw Refusal(field: path + ".terminalId", message: "The \(lifecycle.region.id) region has no terminal '\(seeded.terminalId)'.")
        }
        if all.filter({ $0.terminalId == seeded.terminalId }).count > 1 {
            throw Refusal(field: path + ".terminalId", message: "Terminal \(seeded.terminalId) is named by more than one QR order: a terminal has one payment in flight.")
        }
        let brand = seeded.brand.map(APMPaymentData.APMBrand.init(rawValue:))
            ?? terminal.apmConfig.first(where: { $0.isActive && $0.brandName != .BLIK })?.brandName ?? APMPaymentData.APMBrand(rawValue: "")
        if brand == .BLIK {
            throw Refusal(field: path + ".brand", message: "A BLIK payment takes the customer's code, not a QR: seed it as a transaction.")
        }
        let body = APMBodies.Payment(requestedAmount: seeded.amount, tipAmount: seeded.tipAmount, reference: seeded.reference, brand: brand)
        do {
            _ = try apm.checked(terminal, body)
        } catch {
            let field = switch error.field { case "requestedAmount": "amount"; case nil: error.code == .apmBrandUnavailable ? "brand" : "terminalId"; case let other?: other }
            throw Refusal(field: path + "." + field, message: error.message)
        }
        return QROrder(path: path, terminal: terminal, body: body)
    }

    // MARK: - Devices

    private func device(_ seeded: HostSeed.Device, at path: String, _ all: [HostSeed.Device], _ db: Connection, _ now: Int64) throws
        -> SeedResult.Device
    {
        let terminalID = seeded.terminalId
        // MONEI's devices sign in with POS tokens their backend buys, Geopagos' readers with reader
        // tokens: neither registers a device, so there is none to seed.
        guard lifecycle.region.vendor == .worldline || lifecycle.region.vendor == .pagbank else {
            throw Refusal(
                field: path,
                message: "The \(lifecycle.region.id) host registers no devices (its devices sign in with tokens their backend buys): seed its transactions and webhooks only.")
        }
        guard let terminal = lifecycle.directory.terminals[terminalID] else {
            throw Refusal(field: path + ".terminalId", message: "The \(lifecycle.region.id) region has no terminal '\(terminalID)'.")
        }
        if all.filter({ $0.terminalId == terminalID }).count > 1 {
            throw Refusal(field: path + ".terminalId", message: "Terminal \(terminalID) is named by more than one device of the seed.")
        }
        if try lifecycle.hasDevice(db, terminal: terminalID) {
            throw Refusal(
                field: path + ".terminalId",
                message: "Terminal \(terminalID) already has a registered device: seed a fresh data directory, or reset the region first.",
                conflict: .terminalInUse)
        }
        if let code = seeded.secureCode, !((4...8).contains(code.utf8.count) && code.utf8.allSatisfy({ (0x30...0x39).contains($0) })) {
            throw Refusal(field: path + ".secureCode", message: "The secure code must be 4 to 8 digits.")
        }
        if seeded.secureCode == nil, !terminal.profile.autoLogin {
            throw Refusal(
                field: path + ".secureCode",
                message: "Terminal \(terminalID) has no auto-login: its device needs a secureCode to log in.")
        }
        let installation = seeded.installationId ?? "seed-" + terminalID.lowercased()
        guard PlainIdentifier.isValid(installation) else {
            throw Refusal(field: path + ".installationId", message: "installationId must be 1 to 64 letters, digits, '.', '_' or '-'.")
        }
        if all.filter({ ($0.installationId ?? "seed-" + $0.terminalId.lowercased()) == installation }).count > 1 {
            throw Refusal(field: path + ".installationId", message: "Installation \(installation) is named by more than one device of the seed.")
        }
        if try lifecycle.device(db, installation)?.registered == true {
            throw Refusal(
                field: path + ".installationId", message: "Installation \(installation) is already registered on this host.",
                conflict: .deviceAlreadyRegistered)
        }
        if let secret = seeded.deviceSecret, !Self.isDeviceSecret(secret) {
            throw Refusal(field: path + ".deviceSecret", message: "A device secret is 'ds_' and 64 lower-case hex digits.")
        }
        let model = seeded.model ?? Self.defaultModel
        guard (1...64).contains(model.unicodeScalars.count), model.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw Refusal(field: path + ".model", message: "model must be 1 to 64 printable characters.")
        }
        let secret = seeded.deviceSecret ?? lifecycle.credentials.secret(prefix: "ds_")
        let salt = seeded.secureCode.map { _ in lifecycle.credentials.salt() }
        try db.terminals.register(
            device: installation, model: model, terminal: terminalID, secretHash: Credentials.hash(secret), pinSalt: salt,
            pinHash: seeded.secureCode.flatMap { code in salt.map { Credentials.pinHash(code, salt: $0) } }, at: now)
        var answer = SeedResult.Device(
            terminalId: terminalID, installationId: installation, deviceSecret: secret, registeredAt: Wire.time(now))
        if seeded.loggedIn == true {
            let session = try lifecycle.startSession(db, device: installation, terminal: terminalID, at: now)
            answer.sessionToken = session.sessionToken
            answer.sessionExpiresAtUnix = session.expiresAtUnix
        }
        return answer
    }

    package static func isDeviceSecret(_ value: String) -> Bool {
        value.hasPrefix("ds_") && value.utf8.count == 67
            && value.utf8.dropFirst(3).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    // MARK: - Payments

    private func transactions(_ seeded: [HostSeed.Transaction], _ db: Connection, _ now: Int64) throws -> [String] {
        // Oldest first, so that the history's order (arrival) is the order in time.
        let order = seeded.indices.sorted { (seeded[$0].secondsAgo, $1) > (seeded[$1].secondsAgo, $0) }
        var ids = Array(repeating: "", count: seeded.count)
        for index in order {
            ids[index] = try transaction(seeded[index], at: "transactions[\(index)]", db, now)
        }
        return ids
    }

    private func transaction(_ seeded: HostSeed.Transaction, at path: String, _ db: Connection, _ now: Int64) throws -> String {
        guard let terminal = lifecycle.directory.infos[seeded.terminalId] else {
            throw Refusal(field: path + ".terminalId", message: "The \(lifecycle.region.id) region has no terminal '\(seeded.terminalId)'.")
        }
        guard (1...terminal.limitAmount).contains(seeded.amount) else {
            throw Refusal(field: path + ".amount", message: "amount must be from 1 to \(terminal.limitAmount) (minor units, the terminal's limit).")
        }
        if let tip = seeded.tipAmount, !(0..<seeded.amount).contains(tip) {
            throw Refusal(field: path + ".tipAmount", message: "tipAmount must be from 0 to less than the amount (the amount includes it).")
        }
        guard (0...Self.longestAgo).contains(seeded.secondsAgo) else {
            throw Refusal(field: path + ".secondsAgo", message: "secondsAgo must be from 0 to \(Self.longestAgo) (a year).")
        }
        if let reference = seeded.reference, !(1...64).contains(reference.unicodeScalars.count) {
            throw Refusal(field: path + ".reference", message: "reference must be 1 to 64 characters.")
        }
        let method = seeded.method ?? .CARD
        let at = now - Int64(seeded.secondsAgo) * 1000
        var record = TransactionRecord(
            id: payments.transactionID(at: at), terminalID: terminal.terminalId, merchantID: terminal.merchantId, type: .AUTH,
            status: seeded.status, amount: seeded.amount, tipAmount: seeded.tipAmount, currency: terminal.currency.code,
            reference: seeded.reference, at: at)
        record.paymentMethod = method
        switch method {
        case .CARD:
            guard Self.cardStatuses.contains(seeded.status) else {
                throw Refusal(
                    field: path + ".status",
                    message: "A seeded card payment rests in one of \(Self.cardStatuses.map(\.rawValue).joined(separator: ", ")).")
            }
            if seeded.brand != nil { throw Refusal(field: path + ".brand", message: "brand is for QRCODE payments; a card payment names its card.") }
            let name = seeded.card ?? "visa"
            guard let card = payments.data.issuer.card(named: name) else {
                throw Refusal(field: path + ".card", message: "sandbox-data/cards.json has no card named '\(name)'.")
            }
            if ![.USER_CANCELLED, .TIMEOUT, .REJECTED].contains(seeded.status) {
                payments.attach(card, panHash: Issuer.key(card.pan), to: &record)
            }
        case .QRCODE, .BLIK:
            guard Self.walletStatuses.contains(seeded.status) else {
                throw Refusal(
                    field: path + ".status",
                    message: "A seeded \(method.rawValue) payment rests in one of \(Self.walletStatuses.map(\.rawValue).joined(separator: ", ")).")
            }
            if seeded.card != nil { throw Refusal(field: path + ".card", message: "card is for CARD payments.") }
            if method == .BLIK {
                if seeded.brand != nil { throw Refusal(field: path + ".brand", message: "A BLIK payment has no brand to name.") }
                guard terminal.blikEnabled == true else {
                    throw Refusal(field: path + ".method", message: "Terminal \(terminal.terminalId) does not take BLIK.")
                }
                record.cardBrand = APMPaymentData.APMBrand.BLIK.rawValue
                record.apmBrandFullName = "BLIK"
            } else {
                let active = terminal.apmConfig.filter(\.isActive)
                guard terminal.apmEnabled, !active.isEmpty else {
                    throw Refusal(field: path + ".method", message: "Terminal \(terminal.terminalId) takes no QR wallet.")
                }
                guard let brand = active.first(where: { $0.brandName.rawValue == (seeded.brand ?? active.first?.brandName.rawValue) }) else {
                    throw Refusal(
                        field: path + ".brand",
                        message: "Terminal \(terminal.terminalId) takes the QR brands \(active.map(\.brandName.rawValue).joined(separator: ", ")).")
                }
                record.cardBrand = brand.brandName.rawValue
                record.apmBrandFullName = brand.brandFullName
            }
        case .UNKNOWN:
            throw Refusal(field: path + ".method", message: "method must be CARD, QRCODE or BLIK.")
        }
        conclude(&record, at: at)
        try record.save(db, at: at)
        if seeded.status == .REFUNDED {
            // The refund that paid it back, a minute later (or now, for a sale of the last minute).
            let refundedAt = min(now, at + 60_000)
            var refund = TransactionRecord(
                id: payments.transactionID(at: refundedAt), terminalID: record.terminalID, merchantID: record.merchantID, type: .REFUND,
                status: .CLEARED, amount: record.amount, tipAmount: nil, currency: record.currency, reference: record.reference,
                at: refundedAt)
            refund.originalID = record.id
            for field in [\TransactionRecord.cardBrand, \.maskedPAN, \.panHash, \.cardExpiry, \.cardCountry, \.aid, \.applicationLabel, \.cvm] {
                refund[keyPath: field] = record[keyPath: field]
            }
            conclude(&refund, at: refundedAt)
            try refund.save(db, at: refundedAt)
            record.refundedAt = refundedAt
            record.refundedMaskedPAN = refund.maskedPAN
            record.refundAmount = refund.amount
            try record.save(db, at: refundedAt)
        }
        return record.id
    }

    /// What the host keeps of a payment that ended in the record's status: the response, and for
    /// a card that reached the issuer its authorisation and cryptogram.
    private func conclude(_ record: inout TransactionRecord, at time: Int64) {
        record.pendingUntil = nil
        let card = record.paymentMethod == .CARD && record.maskedPAN != nil
        switch record.status {
        case .CLEARED, .REFUNDED, .CANCELLED:
            (record.responseCode, record.responseMessage) = ("00", "Approved")
            if card {
                record.authID = payments.digits(6)
                record.rrn = payments.digits(12)
                record.cid = "40"
            } else {
                record.apmProviderReference = "seed-" + payments.digits(12)
            }
            if record.status == .CANCELLED { record.responseMessage = "Cancelled" }
        case .DECLINED: (record.responseCode, record.responseMessage) = ("05", "Do not honour")
        case .ERROR: (record.responseCode, record.responseMessage) = ("96", "System malfunction")
        case .TERMINAL_DECLINED: record.responseMessage = "Card expired (declined by the reader kernel)"
        case .TIMEOUT: record.responseMessage = record.paymentMethod == .CARD ? "No card was read in time" : "The order expired at the wallet"
        case .USER_CANCELLED: record.responseMessage = "Cancelled by the user"
        case .REJECTED: record.responseMessage = "The app went to the background"
        default: break
        }
        if card, record.cryptogram == nil {
            record.cid = record.cid ?? "00"
            record.cryptogram = Hex.encode(payments.random.bytes(count: 8)).uppercased()
        }
    }

    // MARK: - Webhooks

    private func webhooks(_ seeded: [HostSeed.Webhook], refusals: [String?], _ db: Connection, _ now: Int64) throws -> [String] {
        var merchants: [String] = []
        for (index, webhook) in seeded.enumerated() {
            let path = "webhooks[\(index)]"
            guard lifecycle.directory.merchants[webhook.merchantId] != nil else {
                throw Refusal(field: path + ".merchantId", message: "The \(lifecycle.region.id) region has no merchant '\(webhook.merchantId)'.")
            }
            if merchants.contains(webhook.merchantId) {
                throw Refusal(field: path + ".merchantId", message: "Merchant \(webhook.merchantId) is named by more than one webhook of the seed.")
            }
            let scheme = webhook.scheme ?? "standard"
            guard ["monei", "standard"].contains(scheme) else {
                throw Refusal(field: path + ".scheme", message: "scheme must be monei or standard.")
            }
            if let reason = refusals[index] {
                throw Refusal(field: path + ".url", message: reason.replacingOccurrences(of: "callbackUrl", with: "url") + ".")
            }
            if let secret = webhook.secret, !Self.isWebhookSecret(secret) {
                throw Refusal(field: path + ".secret", message: "A webhook secret is 'whsec_' and the base64 of 24 to 64 bytes.")
            }
            _ = try outbox.endpoint(db, merchant: webhook.merchantId, at: now)
            try db.webhooks.updateEndpoint(merchant: webhook.merchantId, url: webhook.url, scheme: scheme, at: now)
            if let secret = webhook.secret {
                // The seed's secret replaces the old one at once: nothing was signed with it yet.
                try db.webhooks.rotateSecret(merchant: webhook.merchantId, to: secret, previousExpiresAt: now, at: now)
            }
            merchants.append(webhook.merchantId)
        }
        return merchants
    }

    package static func isWebhookSecret(_ value: String) -> Bool {
        guard value.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(value.dropFirst(6))) else { return false }
        return (24...64).contains(bytes.count)
    }

    package init(lifecycle: Lifecycle, payments: CardPayments, outbox: Outbox, apm: APMPayments) {
        self.lifecycle = lifecycle
        self.payments = payments
        self.outbox = outbox
        self.apm = apm
    }
}
