import Foundation
import SandboxTestSupport
import Testing

/// MONEI's official Python client (`monei` on PyPI, pinned in scripts/setup), unchanged but for its
/// base URL and a test key, against the MONEI host: the backend's three calls.
@Suite("MONEI host: MONEI's official Python client creates a POS token, retrieves a payment and verifies the callback", .blocksThreads)
struct MoneiPythonClientTests {
    /// Runs `code` with MONEI's client configured for the host; what it prints is one JSON object.
    static func python(_ code: String, base: String, key: String, _ values: [String: String] = [:]) throws -> ProcessOutput {
        let prelude = """
            import json, os, sys
            from Monei import MoneiClient, Configuration
            from Monei.exceptions import ApiException
            client = MoneiClient(api_key=os.environ["KEY"], config=Configuration(host=os.environ["BASE"] + "/v1"))

            """
        return try SpawnedProcess.run("python3", ["-c", prelude + code], environment: values.merging(["BASE": base, "KEY": key]) { $1 })
    }

    @Test("token, payment, callback: the client's create, get and verify_signature, as a merchant's backend runs them")
    func backendJourney() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let receiver = try CallbackReceiver()
        let base = monei.api.baseURL

        // 1. The backend asks for a POS token for a store, and gets MONEI's model back.
        let created = try Self.python(
            """
            from Monei.model.create_pos_auth_token_request import CreatePosAuthTokenRequest
            answer = client.pos_auth_token.create(create_pos_auth_token_request=CreatePosAuthTokenRequest(store_id=os.environ["STORE"]))
            bare = client.pos_auth_token.create()
            try:
                MoneiClient(api_key="pk_test_0000", config=Configuration(host=os.environ["BASE"] + "/v1")).pos_auth_token.create()
                refused = None
            except ApiException as error:
                refused = {"status": error.status, "body": json.loads(error.body)}
            print(json.dumps({"token": answer.token, "bare": bare.token, "refused": refused}))
            """, base: base, key: monei.key1, ["STORE": MoneiHost.triana])
        #expect(created.status == 0, "\(created)")
        let tokens = try #require(created.json, "\(created)")
        let token = try #require(tokens["token"] as? String)
        let prepared = await monei.prepare(token)
        #expect(prepared.string("storeId") == MoneiHost.triana, "the token is for the store asked for: \(prepared)")
        #expect(await monei.prepare(try #require(tokens["bare"] as? String)).status == 200)
        let refused = tokens["refused"] as? [String: Any] ?? [:]
        #expect(refused["status"] as? Int == 401, "\(tokens)")
        #expect((refused["body"] as? [String: Any])?["statusCode"] as? Int == 401, "MONEI's error body: \(tokens)")

        // 2. The device pays with it; the host posts the signed callback.
        let payment = try await monei.pay(token: token, amount: 2350, orderId: "order-py", callbackUrl: receiver.url)
        let id = try #require(payment.string("id"), "\(payment)")
        #expect(await eventually(60) { receiver.received.count >= 1 }, "the callback arrives")
        let callback = try #require(receiver.received.first)

        // 3. The backend verifies the callback with the client's verify_signature and reconciles by id.
        let checked = try Self.python(
            """
            payment = client.payments.get(os.environ["ID"])
            verified = client.verify_signature(os.environ["BODY"], os.environ["SIGNATURE"])
            try:
                client.verify_signature(os.environ["BODY"].replace("2350", "2351"), os.environ["SIGNATURE"])
                tampered = "accepted"
            except ApiException as error:
                tampered = error.status
            try:
                client.payments.get("0000000000000000")
                missing = None
            except ApiException as error:
                missing = error.status
            card = payment.payment_method.card
            print(json.dumps({
                "id": payment.id, "status": str(payment.status), "statusCode": payment.status_code, "amount": payment.amount,
                "orderId": payment.order_id, "brand": card.brand, "last4": card.last4, "storeId": payment.store_id,
                "pointOfSaleId": payment.point_of_sale_id, "createdAt": payment.created_at, "livemode": payment.livemode,
                "verified": verified, "tampered": tampered, "missing": missing,
            }))
            """, base: base, key: monei.key1,
            ["ID": id, "BODY": callback.text, "SIGNATURE": callback.headers["monei-signature"] ?? ""])
        #expect(checked.status == 0, "\(checked)")
        let seen = try #require(checked.json, "\(checked)")
        #expect(seen["id"] as? String == id && seen["status"] as? String == "SUCCEEDED" && seen["statusCode"] as? String == "E000", "\(seen)")
        #expect(seen["amount"] as? Int == 2350 && seen["orderId"] as? String == "order-py", "\(seen)")
        #expect(seen["brand"] as? String == "visa" && seen["last4"] as? String == "0007", "\(seen)")
        #expect(seen["storeId"] as? String == MoneiHost.triana && seen["pointOfSaleId"] as? String == "MONEI-T0103", "\(seen)")
        #expect(seen["livemode"] as? Bool == false && seen["createdAt"] as? Int == payment.int("createdAt"), "\(seen)")
        #expect((seen["verified"] as? [String: Any])?["id"] as? String == id, "verify_signature returns the payment: \(seen)")
        #expect(seen["tampered"] as? Int == 401, "a changed body is refused: \(seen)")
        #expect(seen["missing"] as? Int == 404, "\(seen)")
    }
}
