import Foundation
import HostTestSupport
import Testing
import SandboxTestSupport
import WalletSimulator
import WalletRules
import WalletStorage

/// The bank app's codes (docs/blik.md, "Codes") and the host's provider call that spends them:
/// each refusal at once with its own code, nothing made.
@Suite struct BlikCodeTests {
    @Test func aSixDigitCodeLives120SecondsOnTheWalletsClockAndPaysOnce() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let issued = wallet.blikCode(customer: "jan")
        #expect(issued.status == 201, "\(issued)")
        let code = try #require(issued.string("code"))
        #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(code)")
        #expect(issued.int("expiresInSeconds") == 120)
        #expect(issued["verificationCode"] is NSNull, "a 6-digit code has no verification code")
        #expect(issued.string("customerId") == "jan")
        let paid = wallet.blikPay("tx-1", code: code)
        #expect(paid.status == 201 && paid.string("status") == "pending" && paid.string("brand") == "BLIK", "\(paid)")
        let again = wallet.blikPay("tx-2", code: code)
        #expect(again.status == 409 && again.errorCode == "blik_code_used" && again.errorField == "payCode", "\(again)")

        let late = try #require(wallet.blikCode(customer: "jan").string("code"))
        wallet.advance(119)
        let fresh = try #require(wallet.blikCode(customer: "jan").string("code"))
        wallet.advance(1)
        let expired = wallet.blikPay("tx-3", code: late)
        #expect(expired.status == 410 && expired.errorCode == "blik_code_expired", "\(expired)")
        #expect(wallet.blikPay("tx-4", code: fresh).status == 201, "a code made 1 s later still lives")
        #expect(wallet.order("tx-3").status == 404, "a refused code makes no order")
    }

    @Test func aNineDigitCodeNeedsItsVerificationCode() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let issued = wallet.blikCode(customer: "anna", nine: true)
        let code = try #require(issued.string("code"))
        let verification = try #require(issued.string("verificationCode"))
        #expect(code.count == 9 && verification.count == 4, "\(issued)")
        let wrong = verification == "0000" ? "1111" : "0000"
        let refused = wallet.blikPay("tx-1", code: code, verification: wrong)
        #expect(refused.status == 403 && refused.errorCode == "blik_verification_failed", "\(refused)")
        let missing = wallet.blikPay("tx-1", code: code)
        #expect(missing.status == 400 && missing.errorCode == "blik_code_invalid" && missing.errorField == "verificationCode", "\(missing)")
        let paid = wallet.blikPay("tx-1", code: code, verification: verification)
        #expect(paid.status == 201, "a wrong verification code does not spend the code: \(paid)")
        #expect(wallet.confirmationRequests("anna").map { $0["orderId"] as? String } == ["tx-1"])
    }

    @Test(arguments: [
        ("12345", nil, "payCode"), ("1234567", nil, "payCode"), ("12345a", nil, "payCode"), ("", nil, "payCode"),
        ("123456", "1234", "verificationCode"), ("123456789", "12", "verificationCode"), ("123456789", "abcd", "verificationCode"),
    ] as [(String, String?, String)])
    func aCodeOfTheWrongFormIsInvalid(code: String, verification: String?, field: String) throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let reply = wallet.blikPay(code: code, verification: verification)
        #expect(reply.status == 400 && reply.errorCode == "blik_code_invalid" && reply.errorField == field, "\(reply)")
    }

    @Test func aCodeNoBankAppIssuedIsUnknown() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let reply = wallet.blikPay(code: "246813")
        #expect(reply.status == 404 && reply.errorCode == "blik_code_unknown", "\(reply)")
    }

    @Test func codesNeverCollideWithTheCodeTableAndNeverStartWithZero() throws {
        // The digits come in this order: table codes and a leading zero are drawn again.
        let draws = ["777001", "500051", "400410", "012345", "612345", "8123", "923456789", "4321"]
        final class Draws: @unchecked Sendable {
            // @unchecked: `index` is only touched with `lock` held.
            let lock = NSLock()
            var index = 0
        }
        let state = Draws()
        let wallet = try InProcessWallet(blikCodes: BlikCodeSource { count in
            state.lock.withLock {
                defer { state.index += 1 }
                let draw = draws[state.index % draws.count]
                return draw.count == count ? draw : String(repeating: "9", count: count)
            }
        })
        defer { wallet.stop() }
        #expect(wallet.blikCode().string("code") == "612345")
    }

    @Test func theSameCodeOnTwoTerminalsAtTheSameMomentPaysOnce() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let code = try #require(wallet.blikCode().string("code"))
        // Threads of their own, released together (not tasks: the test pool may be busy with other suites).
        final class Race: @unchecked Sendable {
            // @unchecked: `replies` is only touched with `lock` held.
            let lock = NSLock()
            var replies: [HTTPReply] = []
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
        }
        let race = Race()
        for index in 0..<8 {
            race.done.enter()
            Thread {
                race.start.wait()
                let reply = wallet.blikPay("tx-\(index)", code: code, terminal: "MBANK-T010\(index)")
                race.lock.withLock { race.replies.append(reply) }
                race.done.leave()
            }.start()
        }
        for _ in 0..<8 { race.start.signal() }
        race.done.wait()
        let replies = race.lock.withLock { race.replies }
        #expect(replies.filter { $0.status == 201 }.count == 1, "\(replies)")
        #expect(replies.filter { $0.errorCode == "blik_code_used" }.count == 7, "\(replies)")
        #expect(wallet.confirmationRequests("jan").count == 1, "exactly one order")
    }

    @Test func theSameRequestAgainAnswersTheSameOrderAndAnotherWithItsIdIsRefused() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let code = try #require(wallet.blikCode().string("code"))
        #expect(wallet.blikPay("tx-1", code: code).status == 201)
        let again = wallet.blikPay("tx-1", code: code)
        #expect(again.status == 200 && again.string("orderId") == "tx-1", "a host's retry is not a second use: \(again)")
        let other = wallet.blikPay("tx-1", code: code, amount: 999)
        #expect(other.status == 409 && other.errorCode == "idempotency_key_reused", "\(other)")
    }

    @Test func badInputGetsTheEnvelopeWithItsField() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let unknown = wallet.blikCode(customer: "nobody")
        #expect(unknown.status == 404 && unknown.errorCode == "customer_not_found", "\(unknown)")
        let badId = wallet.call("POST", "/api/blik/codes", body: ["customerId": "a b"])
        #expect(badId.status == 400 && badId.errorField == "customerId", "\(badId)")
        let notJSON = wallet.call("POST", "/api/blik/codes", raw: "{")
        #expect(notJSON.status == 400 && notJSON.errorCode == "invalid_json", "\(notJSON)")
        #expect(wallet.call("GET", "/api/blik/customers/nobody").errorCode == "customer_not_found")
        #expect(wallet.call("GET", "/api/blik/customers/nobody/requests").errorCode == "customer_not_found")
        let code = try #require(wallet.blikCode().string("code"))
        for (change, field) in [
            ({ (b: inout [String: Any]) in b["amount"] = 0 }, "amount"), ({ $0["currency"] = "pln" }, "currency"),
            ({ $0["region"] = "EU" }, "region"), ({ $0["paymentId"] = "a b" }, "paymentId"), ({ $0["expiresInSeconds"] = 0 }, "expiresInSeconds"),
            ({ $0["merchantName"] = "" }, "merchantName"),
        ] as [((inout [String: Any]) -> Void, String)] {
            let reply = wallet.blikPay(code: code, change: change)
            #expect(reply.status == 400 && reply.errorField == field, "\(field): \(reply)")
        }
        let unsigned = wallet.provider("POST", "/provider/v1/blik/payments", ["payCode": code], region: "MBANK", signature: .some(nil))
        #expect(unsigned.status == 401 && unsigned.errorCode == "provider_signature_invalid", "\(unsigned)")
        #expect(wallet.blikPay("tx-ok", code: code).status == 201, "the bad requests spent nothing")
    }
}
