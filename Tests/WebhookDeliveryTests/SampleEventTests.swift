import Foundation
import SandboxTestSupport
import Testing

@Suite("Sample webhooks (POST /_sandbox/webhooks/trigger) look like real ones")
struct SampleEventTests {
    /// What a receiver can tell of a payload's `data` without reading ids and amounts: which
    /// fields carry a value, and the values that say what happened.
    struct Shape: Equatable, CustomStringConvertible {
        var present: Set<String>
        var outcome: [String: String]

        /// `orderId` is the merchant's reference (a sample's is `sample`), ids and amounts differ by nature.
        init(_ data: [String: Any]) {
            present = Set(data.filter { !($0.value is NSNull) && $0.key != "orderId" }.keys)
            outcome = [:]
            for key in ["type", "status", "responseCode", "currency", "cardBrand", "last4", "merchantId"] {
                outcome[key] = data[key] as? String
            }
        }

        var description: String { "fields with a value: \(present.sorted()), \(outcome.sorted { $0.key < $1.key })" }
    }

    @Test("each of the five sample events has the fields and outcome of a real payment of its type: a CLEARED sale answers 00, a failure the issuer's 05, a refund names its sale")
    func samplesMatchRealPayments() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)

        // The real ones: a sale, a reversal, a refund, a refund and a sale the issuer declines.
        let sold = try await device.clearedSale(1250, reference: "ORDER-1", "sale")
        let reversedSale = try await device.clearedSale(1300, reference: "ORDER-2", "sale to reverse")
        expectReply(await device.reversal(reversedSale), 200, nil, "reversal")
        let refunded = expectReply(try await device.refund(sold, amount: 1250), 201, nil, "refund")
        let refund = try #require(refunded.string("transactionId"), "\(refunded)")
        let refusedSale = try await device.clearedSale(1350, "sale whose refund is declined")
        _ = try await device.clearedSale(1450, "a later sale, so the previous one is refundable")
        let refusedReply = expectReply(try await device.refund(refusedSale, amount: 1350, card: "visa-decline"), 201, nil, "declined refund")
        #expect(refusedReply.string("transactionStatus") == "DECLINED", "\(refusedReply)")
        let refusedRefund = try #require(refusedReply.string("transactionId"), "\(refusedReply)")
        let declinedReply = expectReply(try await device.sale(1500, card: "visa-decline"), 201, nil, "declined sale")
        let declined = try #require(declinedReply.string("transactionId"), "\(declinedReply)")
        let real: [String: (payment: String, type: String)] = [
            "payment.succeeded": (sold, "payment.succeeded"), "payment.canceled": (reversedSale, "payment.canceled"),
            "refund.succeeded": (refund, "refund.succeeded"), "refund.failed": (refusedRefund, "refund.failed"),
            "payment.failed": (declined, "payment.failed"),
        ]

        var samples: [String: String] = [:]
        for type in real.keys.sorted() { samples[type] = try await host.trigger(type, merchant: EU.merchant1) }
        #expect(
            await eventually(60) { Set(samples.values).isSubset(of: receiver.deliveredIds) && receiver.application.count >= 13 },
            "delivered: \(receiver.application.map { "\($0.type ?? "?") \($0.paymentId ?? "?")" })")
        let uuid = "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"

        for (type, (payment, eventType)) in real.sorted(by: { $0.key < $1.key }) {
            let actual = try #require(
                receiver.application.first { $0.paymentId == payment && $0.type == eventType }, "no real \(type) event")
            let sample = try #require(receiver.application.first { $0.eventId == samples[type] }, "no sample \(type) event")
            let text = String(decoding: sample.body, as: UTF8.self)
            #expect(Set(sample.json.keys) == eventKeys && Set(sample.data.keys) == dataKeys, "\(type) sample keys: \(text)")
            #expect(
                Shape(sample.data) == Shape(actual.data),
                "\(type): the sample \(Shape(sample.data))\nthe real one \(Shape(actual.data))\nsample: \(text)")
            #expect(matches(sample.paymentId ?? "", uuid), "\(type): the sample's paymentId is not a transaction id: \(text)")
            #expect(sample.data["orderId"] as? String == "sample", "\(type): \(text)")
            #expect((sample.data["amount"] as? NSNumber)?.intValue == 1000, "\(type): \(text)")
        }
        // What the issue saw: the sample sale was CLEARED with responseCode null.
        let succeeded = try #require(receiver.application.first { $0.eventId == samples["payment.succeeded"] })
        #expect(succeeded.data["status"] as? String == "CLEARED" && succeeded.data["responseCode"] as? String == "00", "\(succeeded.json)")
        let refundSample = try #require(receiver.application.first { $0.eventId == samples["refund.succeeded"] })
        #expect(matches(refundSample.data["originalPaymentId"] as? String ?? "", uuid), "\(refundSample.json)")
    }
}
