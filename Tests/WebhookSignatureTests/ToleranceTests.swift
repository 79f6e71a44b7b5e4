import Synchronization
import Testing
import WebhookSignature

/// The timestamp window, with the clock injected: exactly the tolerance passes, one second more fails,
/// in the past and in the future alike.
@Suite("timestamp tolerance")
struct ToleranceTests {
    /// A clock the test sets, read by the verifier on each call.
    final class ManualClock: Sendable {
        private let seconds: Mutex<Int>
        init(_ seconds: Int) { self.seconds = Mutex(seconds) }
        func set(_ value: Int) { seconds.withLock { $0 = value } }
        func now() -> Int { seconds.withLock { $0 } }
    }

    @Test(
        "the default tolerance is 300 s either way", arguments: WebhookScheme.allCases,
        [(0, true), (300, true), (-300, true), (301, false), (-301, false), (86_400, false), (-86_400, false)])
    func defaultWindow(scheme: WebhookScheme, offset: (seconds: Int, accepted: Bool)) throws {
        let clock = ManualClock(Sample.timestamp + offset.seconds)
        let verifier = try WebhookVerifier(
            scheme: scheme, secret: scheme == .monei ? Sample.apiKey : Sample.secret, clock: { clock.now() })
        #expect(verifier.tolerance == 300)
        let error = failure { try verifier.verify(headers: try! signed(scheme), body: Sample.body) }
        #expect(error == (offset.accepted ? nil : .timestampOutsideTolerance), "now = t + \(offset.seconds)")
    }

    @Test("the clock is read at each verification, not when the verifier is made")
    func clockIsReadEachTime() throws {
        let clock = ManualClock(Sample.timestamp)
        let verifier = try WebhookVerifier(scheme: .monei, secret: Sample.apiKey, clock: { clock.now() })
        let headers = try signed(.monei)
        try verifier.verify(headers: headers, body: Sample.body)
        clock.set(Sample.timestamp + 301)
        #expect(failure { try verifier.verify(headers: headers, body: Sample.body) } == .timestampOutsideTolerance)
        clock.set(Sample.timestamp - 10)
        try verifier.verify(headers: headers, body: Sample.body)
    }

    @Test("a configured tolerance replaces the default", arguments: [0, 10, 3600])
    func configured(tolerance: Int) throws {
        for scheme in WebhookScheme.allCases {
            let secret = scheme == .monei ? Sample.apiKey : Sample.secret
            let headers = try signed(scheme)
            for (offset, accepted) in [(tolerance, true), (-tolerance, true), (tolerance + 1, false), (-tolerance - 1, false)] {
                let error = failure {
                    try WebhookVerifier.verify(
                        scheme: scheme, headers: headers, body: Sample.body, secret: secret, tolerance: tolerance,
                        now: Sample.timestamp + offset)
                }
                #expect(error == (accepted ? nil : .timestampOutsideTolerance), "\(scheme) tolerance \(tolerance), offset \(offset)")
            }
        }
    }

    @Test("the message says how old, or how far in the future, the timestamp is")
    func messages() throws {
        let headers = try signed(.monei)
        let old = failure {
            try WebhookVerifier.verify(scheme: .monei, headers: headers, body: Sample.body, secret: Sample.apiKey, now: Sample.timestamp + 900)
        }
        #expect(old?.message.contains("is 900 s old") == true, "\(String(describing: old))")
        let future = failure {
            try WebhookVerifier.verify(scheme: .monei, headers: headers, body: Sample.body, secret: Sample.apiKey, now: Sample.timestamp - 900)
        }
        #expect(future?.message.contains("900 s in the future") == true, "\(String(describing: future))")
        #expect(future?.header == "MONEI-Signature")
    }

    @Test("absurd clocks and timestamps are refused, not trapped on")
    func extremes() throws {
        let headers = ["MONEI-Signature": try signed(.monei, timestamp: 999_999_999_999_999_999)["MONEI-Signature"]!]
        for now in [0, Int.max, Int.min] {
            let error = failure {
                try WebhookVerifier.verify(scheme: .monei, headers: headers, body: Sample.body, secret: Sample.apiKey, tolerance: Int.max, now: now)
            }
            #expect(error == nil || error == .timestampOutsideTolerance)
        }
        #expect(
            failure {
                try WebhookVerifier.verify(scheme: .monei, headers: headers, body: Sample.body, secret: Sample.apiKey, now: Sample.timestamp)
            } == .timestampOutsideTolerance)
    }
}
