import HostRules
import HostStorage
import SandboxTime
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTP
import SandboxWire

/// Card payments on the terminal API (docs/card-payments.md): the reader's configuration, sale,
/// refund, the card, PIN and DCC steps, reversal, and the reads (last, details, history, count,
/// statistics, receipts).
extension EnvironmentHost {
    struct PaymentBodies {
        // The bodies the SDK sends are the wire's, one type each with the SDK's.
        typealias Reversal = SandboxWire.PaymentBodies.Reversal
        typealias DCC = SandboxWire.PaymentBodies.DCC
        typealias Pin = SandboxWire.PaymentBodies.Pin
        typealias Receipt = SandboxWire.PaymentBodies.Receipt
        struct Card: Decodable { let cardPayload: String?; let readerOutcome: String? }
    }

    /// The `Idempotency-Key` of a request with the hash of what it asks.
    static func idempotencyKey(_ request: Request) throws(HTTPError) -> CardPayments.IdempotencyKey? {
        guard let key = request.header("idempotency-key") else { return nil }
        guard (1...64).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidRequest("Idempotency-Key must be 1 to 64 visible ASCII characters.", field: "header.Idempotency-Key")
        }
        let hash = SHA256.hexDigest(Array((request.method + " " + request.path + "\n").utf8) + request.body)
        return CardPayments.IdempotencyKey(key: key, requestHash: hash)
    }

    static func addPaymentRoutes(to router: inout Router, _ payments: CardPayments, baseURL: @escaping @Sendable () -> String) {
        let lifecycle = payments.lifecycle
        @Sendable func id(_ request: Request) throws -> String {
            try Validate.identifier(request.parameter("transactionId"), field: "transactionId")
        }

        router.group("/terminal/v1", middleware: sessionBearer(lifecycle)) { terminal in
            terminal.post("/reader/prepare") { _, _ in
                let now = payments.now()
                return .json(
                    ReaderConfiguration(
                        readerKey: Base64.encode(payments.data.readerKey), keyId: payments.data.readerKeyID,
                        serverTime: Wire.time(now), serverTimeUnix: Wire.unix(now), cardScreenTimeoutSeconds: 40,
                        payloadLifetimeSeconds: 120, pinTimeoutSeconds: 60))
            }
            terminal.post("/transactions/sale", deferred: { request, session, reply in
                try payments.sale(session, try request.decode(CardPayments.SaleRequest.self), key: try idempotencyKey(request), reply: answering(reply))
            })
            terminal.post("/transactions/refund", deferred: { request, session, reply in
                let body = try request.decode(CardPayments.RefundRequest.self)
                _ = try Validate.identifier(body.transactionId, field: "transactionId")
                try payments.refund(session, body, key: try idempotencyKey(request), reply: answering(reply))
            })
            terminal.post("/transactions/validate") { request, session in
                try payments.validate(session, try request.decode(CardPayments.ValidateRequest.self))
                return Response(status: 204)
            }
            terminal.post("/transactions/{transactionId}/card", deferred: { request, session, reply in
                let body = try request.decode(PaymentBodies.Card.self)
                try payments.card(
                    session, transaction: try id(request), cardPayload: body.cardPayload, readerOutcome: body.readerOutcome,
                    key: try idempotencyKey(request), reply: answering(reply))
            })
            terminal.post("/transactions/{transactionId}/reversal", deferred: { request, session, reply in
                let body = try request.decode(PaymentBodies.Reversal.self)
                try payments.reverse(
                    session, transaction: try id(request), byUser: body.isCancelledByUser ?? false, expectedAmount: body.expectedAmount,
                    cardPayload: body.cardPayload, key: try idempotencyKey(request), reply: answering(reply))
            })
            terminal.post("/transactions/{transactionId}/dcc", deferred: { request, session, reply in
                let body = try request.decode(PaymentBodies.DCC.self)
                try payments.finishDCC(
                    session, transaction: try id(request), accepted: body.dccOfferAccepted, key: try idempotencyKey(request), reply: answering(reply))
            })
            terminal.post("/transactions/{transactionId}/pin", deferred: { request, session, reply in
                let body = try request.decode(PaymentBodies.Pin.self)
                try payments.pin(session, transaction: try id(request), sealed: body.pinPayload, key: try idempotencyKey(request), reply: answering(reply))
            })
            terminal.get("/transactions/last") { _, session in
                .json(try payments.last(session))
            }
            terminal.get("/transactions/count") { request, session in
                .json(TransactionsCount(count: try payments.count(session, try CardPayments.HistoryFilter(query: request.query))))
            }
            terminal.get("/transactions/details") { request, session in
                // An empty query value is no value (`?transactionId=&reference=R`).
                func value(_ name: String) -> String? { request.query[name].flatMap { $0.isEmpty ? nil : $0 } }
                return .json(
                    try payments.details(
                        session, id: try value("transactionId").map { try Validate.identifier($0, field: "query.transactionId") },
                        reference: value("reference"), terminalID: value("terminalId")))
            }
            terminal.get("/transactions/{transactionId}") { request, session in
                .json(try payments.details(session, id: try id(request), reference: nil, terminalID: nil))
            }
            terminal.get("/transactions") { request, session in
                .json(try payments.history(session, try CardPayments.HistoryFilter(query: request.query)))
            }
            terminal.get("/statistics") { request, session in
                let (from, to, type) = try statisticsQuery(request.query)
                return .json(TransactionsStatisticsList(statistics: try payments.statistics(session, from: from, to: to, type: type)))
            }
            terminal.post("/transactions/{transactionId}/receipt") { request, session in
                let body = try request.decode(PaymentBodies.Receipt.self)
                // The host's own address, never the client's Host header (which would let a client put
                // any site into a customer's receipt mail).
                return .json(
                    try payments.receipt(
                        session, transaction: try id(request), type: body.receiptType, email: try body.email.map { try Validate.email($0) },
                        baseURL: baseURL()))
            }
        }
    }

    /// `fromDate`, `toDate` (ISO 8601) and `statisticsType` (`daily`, the default, or `brand`) of a
    /// statistics call, the terminal's or the back office's.
    static func statisticsQuery(_ query: [String: String]) throws(HTTPError) -> (from: Int64, to: Int64, type: TransactionsStatisticsType) {
        func date(_ name: String) throws(HTTPError) -> Int64 {
            guard let text = query[name], let date = Wire.parse(text) else {
                throw HTTPError.invalidRequest("\(name) must be an ISO 8601 date and time.", field: "query.\(name)")
            }
            return date.millisecondsSince1970
        }
        guard let type = TransactionsStatisticsType(rawValue: query["statisticsType"] ?? "daily") else {
            throw HTTPError.invalidRequest("statisticsType must be daily or brand.", field: "query.statisticsType")
        }
        let from = try date("fromDate")
        let to = try date("toDate")
        guard from <= to else { throw HTTPError.invalidRequest("fromDate must not be after toDate.", field: "query.fromDate") }
        return (from, to, type)
    }
}
