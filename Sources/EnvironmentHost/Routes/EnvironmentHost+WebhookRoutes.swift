import SandboxWire
import HostRules
import HostStorage
import Foundation
import SandboxCore
import SandboxHTTP

/// The webhook delivery log, replay and endpoint settings on the back-office API (the sample
/// events of sandbox control: EnvironmentHost+SandboxRoutes.swift).
extension EnvironmentHost {
    static func addWebhookRoutes(to router: inout Router, _ webhooks: WebhookLog, outbox: Outbox, key: String) {
        router.group("/backoffice/v1", middleware: backOfficeKey(key)) { backOffice in
            backOffice.get("/webhooks/events") { request, _ in
                let limit = Int(request.query["limit"] ?? "50") ?? 0
                guard (1...500).contains(limit) else {
                    throw HTTPError.invalidRequest("limit must be a whole number from 1 to 500.", field: "query.limit")
                }
                let merchant = request.query["merchantId"].flatMap { $0.isEmpty ? nil : $0 }
                return .json(["events": try webhooks.events(merchant: merchant, limit: limit)])
            }
            backOffice.get("/webhooks/events/{eventId}") { request, _ in
                .json(try webhooks.event(request.parameter("eventId")))
            }
            backOffice.post("/webhooks/events/{eventId}/replay") { request, _ in
                let id = request.parameter("eventId")
                try webhooks.replay(id)
                return .json(["eventId": id, "state": "pending"], status: 202)
            }
            backOffice.get("/merchants/{merchantId}/webhook") { request, _ in
                .json(try webhooks.settings(merchant: try Validate.identifier(request.parameter("merchantId"), field: "merchantId")))
            }
            backOffice.post("/merchants/{merchantId}/webhook/rotate-secret") { request, _ in
                struct Body: Decodable { let overlapSeconds: Int? }
                let merchant = try Validate.identifier(request.parameter("merchantId"), field: "merchantId")
                try webhooks.checkMerchant(merchant)
                let overlap = try request.decode(Body.self).overlapSeconds ?? 86_400
                guard (0...2_592_000).contains(overlap) else {
                    throw HTTPError.invalidRequest("overlapSeconds must be from 0 to 2592000 (30 days).", field: "overlapSeconds")
                }
                return .json(try webhooks.rotateSecret(merchant: merchant, overlapSeconds: overlap))
            }
            backOffice.put("/merchants/{merchantId}/webhook") { request, _ in
                struct Body: Decodable { let url: String?; let scheme: String }
                let merchant = try Validate.identifier(request.parameter("merchantId"), field: "merchantId")
                try webhooks.checkMerchant(merchant)
                let body = try request.decode(Body.self)
                guard ["monei", "standard"].contains(body.scheme) else {
                    throw HTTPError.invalidRequest("scheme must be monei or standard.", field: "scheme")
                }
                if let url = body.url, let reason = outbox.refusal(of: url) {
                    throw HTTPError.invalidRequest(reason.replacingOccurrences(of: "callbackUrl", with: "url") + ".", field: "url")
                }
                return .json(try webhooks.saveSettings(merchant: merchant, url: body.url, scheme: body.scheme))
            }
        }
    }
}
