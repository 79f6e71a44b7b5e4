import WalletRules
import WalletStorage
import Foundation
import SandboxQRCode
import SandboxHTTP
import SandboxWire

/// The customer API (`openapi/wallet.yaml`): the API twin of every button of the pay page, and
/// the standing rules that press them for CI. Open on loopback, like sandbox control.
extension WalletSimulator {
    static func addCustomerRoutes(to router: inout Router, book: OrderBook) {
        @Sendable func orderId(_ request: Request) throws -> String {
            try Validate.identifier(request.parameter("orderId"), field: "orderId")
        }
        router.get("/api/orders") { request in
            let status = request.query["status"] ?? "open"
            guard status == "open" || status == "all" else {
                throw WalletError.invalid("status must be open or all.", field: "query.status")
            }
            return .json(["orders": try book.orders(openOnly: status == "open").map(\.order)])
        }
        router.get("/api/orders/{orderId}") { request in .json(try book.order(try orderId(request)).order) }
        router.get("/api/orders/{orderId}/qr.svg") { request in
            let order = try book.order(try orderId(request))
            let svg = try QRCode(text: order.payUrl).svg(moduleSize: 6)
            return .text(svg, contentType: "image/svg+xml")
        }
        router.post("/api/orders/{orderId}/scan") { request in .json(try book.scan(try orderId(request)).order) }
        router.post("/api/orders/{orderId}/pay") { request in .json(try book.pay(try orderId(request)).order) }
        router.post("/api/orders/{orderId}/decline") { request in
            let id = try orderId(request)
            struct Body: Decodable { let reason: String? }
            let reason = try Validate.declineReason(try request.decode(Body.self).reason)
            return .json(try book.decline(id, reason: reason).order)
        }
        router.post("/api/orders/{orderId}/expire") { request in .json(try book.expire(try orderId(request)).order) }

        router.get("/api/rules") { _ in .json(["rules": try book.rules()]) }
        router.post("/api/rules") { request in
            let rule = try Self.rule(try request.decode(StandingRule.Draft.self), id: book.ids.next("rule"), now: Date(milliseconds: book.now))
            try book.addRule(rule)
            return .json(rule, status: 201)
        }
        router.delete("/api/rules") { _ in
            try book.deleteRules()
            return Response(status: 204)
        }
        router.delete("/api/rules/{ruleId}") { request in
            try book.deleteRule(try Validate.identifier(request.parameter("ruleId"), field: "ruleId"))
            return Response(status: 204)
        }
    }

    /// A rule from its draft, every field checked.
    static func rule(_ draft: StandingRule.Draft, id: String, now: Date) throws -> StandingRule {
        guard let target = StandingRule.Target(rawValue: draft.appliesTo ?? "orders") else {
            throw WalletError.invalid("appliesTo must be orders or refunds.", field: "appliesTo")
        }
        guard let action = RuleAction(rawValue: draft.action) else {
            throw WalletError.invalid("action must be one of approve, decline, expire, scanOnly.", field: "action")
        }
        if target == .refunds, action != .approve, action != .decline {
            throw WalletError.invalid("A rule for refunds can only approve or decline.", field: "action")
        }
        var reason: String?
        if action == .decline {
            reason = try draft.reason.map { try Validate.declineReason($0).rawValue }
        } else if draft.reason != nil {
            throw WalletError.invalid("reason goes only with the action decline.", field: "reason")
        }
        let after = draft.afterSeconds ?? 0
        guard after.isFinite, (0...86_400).contains(after) else {
            throw WalletError.invalid("afterSeconds must be from 0 to 86400.", field: "afterSeconds")
        }
        if let count = draft.count, !(1...1_000_000).contains(count) {
            throw WalletError.invalid("count must be from 1 to 1000000, or null for a rule that stays until deleted.", field: "count")
        }
        return StandingRule(
            ruleId: id, appliesTo: target, region: try draft.region.map { try Validate.identifier($0, field: "region") },
            merchantId: try draft.merchantId.map { try Validate.identifier($0, field: "merchantId") },
            terminalId: try draft.terminalId.map { try Validate.identifier($0, field: "terminalId") }, action: action,
            reason: reason, afterSeconds: after, count: draft.count, createdAt: now)
    }
}
