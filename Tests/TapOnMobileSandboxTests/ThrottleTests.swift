import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// The host's throttle of wrong codes, as an app sees it through the SDK.
@Suite("SDK: throttled codes on a live sandbox")
struct ThrottleTests {
    @Test("20 wrong back-office codes, then network.tooManyAttempts (429) even for the right one; after the wait it registers")
    func wrongCodesThenTheWait() async throws {
        // The hosts' clocks stand still, so the throttle's window is not spent by a loaded machine's real time.
        let sandbox = try LiveSandbox(regions: ["EU"])
        defer { sandbox.stop() }
        do {
            let sdk = makePhone(sandbox).sdk
            _ = try value(await sdk.initialization(environment: .sandboxEU, appVersion: "1.0.0", language: .english), "initialization")
            let challenge = try value(await sdk.beginRegistration(), "beginRegistration")
            let backOffice = sandbox.backOffice("EU")
            let code = try await backOffice.confirm(challenge: challenge, terminal: "EU-T0203")
            for n in 0..<20 {
                let wrong = String(format: "EU-%06d", n) == code ? "EU-999999" : String(format: "EU-%06d", n)
                #expect(try value(await sdk.verifyChallengeCode(challengeCode: wrong), "wrong code \(n)") == false)
            }
            let throttled = try failure(await sdk.verifyChallengeCode(challengeCode: code), "the right code, throttled")
            #expect(throttled == .network(.tooManyAttempts), "\(throttled)")
            #expect(throttled.code == "too_many_attempts" && throttled.status == 429 && throttled.exitCode == 16, "\(throttled)")
            #expect(throttled.message.contains("try again in"), "\(throttled.message)")
            try await backOffice.advanceClock(seconds: 60)
            #expect(try value(await sdk.verifyChallengeCode(challengeCode: code), "verify after the wait") == true)
            _ = try value(await sdk.endRegistration(backofficeCode: code, pin: "2468"), "endRegistration after the wait")
        }
    }
}
