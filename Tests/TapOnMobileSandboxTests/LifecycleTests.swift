import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// Registration both ways, login, session, terminal settings, prepare, secret code, relink,
/// support number, device status, persistence and location, against a live sandbox.
@Suite("SDK terminal lifecycle on a live sandbox")
struct LifecycleTests {
    @Test("EU portal registration: challenge → back office → verify → end; login, session, settings, prepare, logout")
    func portalRegistrationJourney() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox)
            let sdk = phone.sdk
            _ = try value(await sdk.initialization(environment: .sandboxEU, appVersion: "1.0.0", language: .french), "initialization")
            #expect(try value(await sdk.isDeviceRegistered(), "isDeviceRegistered before") == false)
            #expect(await sdk.getTerminalID() == .failure(.session(.terminalUnregistered)))

            // Register through the merchant portal on a terminal without auto-login.
            let challenge = try value(await sdk.beginRegistration(), "beginRegistration")
            #expect(challenge.range(of: #"^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$"#, options: .regularExpression) != nil, "\(challenge)")
            let backOffice = sandbox.backOffice("EU")
            let code = try await backOffice.confirm(challenge: challenge, terminal: "EU-T0203")
            #expect(try value(await sdk.verifyChallengeCode(challengeCode: code), "verify") == true)
            #expect(try value(await sdk.verifyChallengeCode(challengeCode: "EU-000000"), "verify unknown") == false)
            _ = try value(await sdk.endRegistration(backofficeCode: code, pin: "2468"), "endRegistration")
            let reused = try failure(await sdk.endRegistration(backofficeCode: code, pin: "2468"), "endRegistration again")
            #expect(reused == .registration(.codeUsed))
            #expect(reused.code == "backoffice_code_used" && reused.status == 409 && reused.exitCode == 12, "\(reused)")

            // The device id is the installation id kept in device.json; the host agrees it is registered.
            #expect(try value(await sdk.isDeviceRegistered(), "isDeviceRegistered") == true)
            #expect(try value(await sdk.getTerminalID(), "getTerminalID") == "EU-T0203")
            let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: phone.deviceFile)) as? [String: Any]
            let installation = try #require(saved?["installationId"] as? String)
            let terminal = try await backOffice.terminal("EU-T0203")
            #expect(terminal["registered"] as? Bool == true)
            #expect(terminal["deviceId"] as? String == installation)
            #expect(terminal["deviceModel"] as? String == Device.standard.model)

            // Login: this terminal wants the secure code.
            #expect(try failure(await sdk.doLogin(pin: nil), "login without PIN") == .session(.pinRequired))
            let wrong = try failure(await sdk.doLogin(pin: "1111"), "login with a wrong PIN")
            #expect(wrong == .session(.invalidPin) && wrong.message.contains("attempt"), "\(wrong)")
            #expect(await sdk.getTerminalInfo() == .failure(.session(.sessionError)), "no session before login")
            _ = try value(await sdk.doLogin(pin: "2468"), "doLogin")

            let expiration = try value(await sdk.getSessionExpiration(), "getSessionExpiration")
            // On the host's clock, which stands still in this test.
            let hostNow = try #require(
                await Service(name: "EU", baseURL: try sandbox.url(of: "EU")).call("GET", "/_sandbox/clock")["nowUnix"] as? Double)
            #expect(abs(expiration - hostNow - 600) < 5, "sandbox sessions last 600 s: \(expiration), host at \(hostNow)")
            let infoInit = try value(await sdk.getInfoInit(), "getInfoInit")
            #expect(infoInit == InfoInit(isAutoLoginEnabled: false, registerOptions: [.portal, .registrationCode]))
            let info = try value(await sdk.getTerminalInfo(), "getTerminalInfo")
            #expect(info.terminalId == "EU-T0203" && info.merchantId == "EU-M02")
            #expect(info.currency.code == "EUR" && info.currency.exponent == 2)
            #expect(info.isRefundAvailable && info.isReversalAvailable)

            // No card before the reader is prepared.
            await sdk.reader.present(.tap(card("visa")))
            let early = await collect(sdk.doPayment(currency: "EUR", requestedAmount: 1000, reference: nil))
            #expect(early == [.failure(.cardReaderSession(.notPrepared))])

            // prepareDevice: the listener hears 0 … 100, then onCompleted.
            let recorder = ProgressRecorder()
            sdk.addPrepareDeviceListener(recorder)
            sdk.addPrepareDeviceListener(recorder)
            _ = try value(await sdk.prepareDeviceAndWait(), "prepareDeviceAndWait")
            #expect(recorder.percentages.first == 0 && recorder.percentages.last == 100, "\(recorder.percentages)")
            #expect(recorder.percentages == recorder.percentages.sorted() && Set(recorder.percentages).count == recorder.percentages.count)
            #expect(recorder.completed == 1 && recorder.errors.isEmpty)
            #expect(sdk.getPrepareDevicePercentage() == 100)

            // The seed's fire-and-forget prepareDevice() reports to listeners as well.
            let waiter = CompletionWaiter()
            sdk.addPrepareDeviceListener(waiter)
            sdk.removePrepareDeviceListener(recorder)
            await waiter.run { sdk.prepareDevice() }
            #expect(waiter.percentages.last == 100 && waiter.errors.isEmpty)
            #expect(recorder.completed == 1, "a removed listener hears nothing more")
            sdk.removeAllPrepareDeviceListeners()

            // Support number: one per installation, kept on the device.
            let support = try value(await sdk.loadSupportNumber(), "loadSupportNumber")
            #expect(support.range(of: #"^SN-\d{8}$"#, options: .regularExpression) != nil, "\(support)")
            #expect(try value(await sdk.loadSupportNumber(), "loadSupportNumber again") == support)
            _ = try value(sdk.updateLanguage(language: .german), "updateLanguage")

            // A second launch of the app on the same device folder: same installation, same registration.
            let relaunched = makePhone(sandbox, directory: phone.directory)
            #expect(relaunched.sdk.language == .german)
            _ = try value(await relaunched.sdk.initialization(environment: .sandboxEU), "initialization after relaunch")
            #expect(try value(await relaunched.sdk.isDeviceRegistered(), "registered after relaunch") == true)
            #expect(try value(await relaunched.sdk.loadSupportNumber(), "support number after relaunch") == support)
            #expect(try value(await relaunched.sdk.getTerminalID(), "terminal after relaunch") == "EU-T0203")
            // The session is kept on the device (as a real SDK keeps its token): the relaunch is logged in.
            #expect(try value(await relaunched.sdk.getTerminalInfo(), "terminal info after relaunch").terminalId == "EU-T0203")

            // Logout ends the session at once, for every launch that held it.
            _ = try value(await sdk.doLogout(), "doLogout")
            #expect(await sdk.getTerminalInfo() == .failure(.session(.sessionError)))
            #expect(await sdk.doLogout() == .failure(.session(.sessionError)))
            #expect(await relaunched.sdk.getTerminalInfo() == .failure(.session(.sessionExpired)))
        }
    }

    @Test("mBank token registration: verify → begin → end; order enforced; auto-login; PLN terminal")
    func tokenRegistrationOnMBANK() async throws {
        try await withSandbox { sandbox in
            let sdk = makePhone(sandbox).sdk
            _ = try value(await sdk.initialization(environment: .sandboxMBANK), "initialization")
            let backOffice = sandbox.backOffice("MBANK")
            let token = try await backOffice.registrationToken(terminal: "MBANK-T0101")
            #expect(token.hasPrefix("rt_mbank_"))

            #expect(try value(await sdk.verifyRegistrationToken(registrationToken: "rt_mbank_" + String(repeating: "0", count: 32)), "unknown token") == false)
            let euToken = try await sandbox.backOffice("EU").registrationToken(terminal: "EU-T0102")
            #expect(try value(await sdk.verifyRegistrationToken(registrationToken: euToken), "EU token on mBank") == false)
            let early = try failure(await sdk.beginTokenRegistration(registrationToken: token), "begin before verify")
            #expect(early == .registration(.outOfOrder) && early.code == "registration_out_of_order", "\(early)")

            #expect(try value(await sdk.verifyRegistrationToken(registrationToken: token), "verify") == true)
            _ = try value(await sdk.beginTokenRegistration(registrationToken: token), "begin")
            _ = try value(await sdk.endTokenRegistration(registrationToken: token, pin: nil), "end")
            #expect(try value(await sdk.verifyRegistrationToken(registrationToken: token), "verify a used token") == false)

            #expect(try value(await sdk.isDeviceRegistered(), "isDeviceRegistered") == true)
            #expect(try value(await sdk.getTerminalID(), "getTerminalID") == "MBANK-T0101")
            _ = try value(await sdk.doLogin(pin: nil), "auto-login")
            #expect(try value(await sdk.getInfoInit(), "getInfoInit").isAutoLoginEnabled)
            let info = try value(await sdk.getTerminalInfo(), "getTerminalInfo")
            #expect(info.currency.code == "PLN" && info.tipEnabled)
            #expect((try await backOffice.terminal("MBANK-T0101"))["registered"] as? Bool == true)
        }
    }

    @Test("secure code update, relink (Apple's terms shown again), and location rules")
    func secretCodeRelinkAndLocation() async throws {
        try await withSandbox { sandbox in
            let linking = Counter()
            let phone = makePhone(sandbox, accountLinking: { _ in linking.increment(); return .confirm })
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "EU-T0203", in: sandbox, environment: .sandboxEU, pin: "2468")
            #expect(linking.value == 1, "the first prepare links the merchant's account")
            _ = try value(await sdk.prepareDeviceAndWait(), "prepare again")
            #expect(linking.value == 1, "a linked account is not asked again")

            #expect(try failure(await sdk.updateSecretCode(oldSecretCode: "0000", newSecretCode: "1357"), "wrong old code") == .session(.invalidPin))
            let malformed = try failure(await sdk.updateSecretCode(oldSecretCode: "2468", newSecretCode: "12"), "a 2-digit code")
            #expect(malformed == .validation(.invalidRequest) && malformed.field == "newSecretCode" && malformed.exitCode == 17, "\(malformed)")
            _ = try value(await sdk.updateSecretCode(oldSecretCode: "2468", newSecretCode: "1357"), "updateSecretCode")
            _ = try value(await sdk.doLogout(), "logout")
            #expect(try failure(await sdk.doLogin(pin: "2468"), "old code") == .session(.invalidPin))
            _ = try value(await sdk.doLogin(pin: "1357"), "new code")

            _ = try value(await sdk.prepareDeviceAndWait(), "prepare after login")
            _ = try value(await sdk.relinkAccount(), "relinkAccount")
            #expect(linking.value == 2, "relink shows Apple's terms again")
            await sdk.reader.present(.tap(card("visa")))
            let (_, detail) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 700, reference: nil), "pay after relink")
            #expect(detail.transactionStatus == .CLEARED)

            // Location: authorized by default; a device in Poland may not use a terminal limited to Benelux, France and Germany.
            #expect(sdk.isLocationAuthorized() && !sdk.isLocationDenied())
            _ = try value(await sdk.requestLocation(), "requestLocation")
            let abroad = makePhone(sandbox, location: .authorized(country: "PL", fixAfter: 0))
            try await registerAndPrepare(abroad, on: "EU-T0103", in: sandbox, environment: .sandboxEU)
            let outside = try failure(
                await abroad.sdk.validateTransaction(transactionServiceType: .payment, requestedAmount: 1000, validate: nil), "validate in PL")
            #expect(outside == .location(.countryNotPermitted) && outside.code == "country_not_permitted" && outside.exitCode == 15, "\(outside)")

            // A user who denied location: the helpers say so, and prepare stops with location(.denied).
            let denied = makePhone(sandbox, location: LocationScript(authorization: .denied))
            #expect(denied.sdk.isLocationDenied() && !denied.sdk.isLocationAuthorized())
            _ = try value(await denied.sdk.initialization(environment: .sandboxEU), "initialization")
            #expect(await denied.sdk.requestLocation() == .failure(.location(.denied)))
            let challenge = try value(await denied.sdk.beginRegistration(), "begin")
            let code = try await sandbox.backOffice("EU").confirm(challenge: challenge, terminal: "EU-T0101")
            _ = try value(await denied.sdk.endRegistration(backofficeCode: code, pin: "1234"), "end")
            _ = try value(await denied.sdk.doLogin(pin: nil), "login")
            let recorder = ProgressRecorder()
            denied.sdk.addPrepareDeviceListener(recorder)
            #expect(await denied.sdk.prepareDeviceAndWait() == .failure(.location(.denied)))
            #expect(recorder.errors == [.location(.denied)] && recorder.completed == 0)
        }
    }

    @Test("prepareDevice's listener is called on the configured callback queue (the main queue on Apple platforms), in order")
    func prepareListenerOnCallbackQueue() async throws {
        try await withSandbox { sandbox in
            let appQueue = DispatchQueue(label: "app-main")
            appQueue.setSpecific(key: CompletionWaiter.queueKey, value: "app-main")
            let phone = makePhone(sandbox, callbackQueue: appQueue)
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let waiter = CompletionWaiter()
            phone.sdk.addPrepareDeviceListener(waiter)
            await waiter.run { phone.sdk.prepareDevice() }
            #expect(waiter.percentages.first == 0 && waiter.percentages.last == 100, "\(waiter.percentages)")
            #expect(waiter.percentages == waiter.percentages.sorted())
            #expect(!waiter.queues.isEmpty && waiter.queues.allSatisfy { $0 == "app-main" }, "\(waiter.queues)")
        }
    }
}

/// Counts calls from any task.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A listener that lets a test wait for `prepareDevice()` to end, and notes the queue of each call
/// (the label a test gave it with ``queueKey``; nil for any other).
final class CompletionWaiter: PrepareDeviceListener, @unchecked Sendable {
    static let queueKey = DispatchSpecificKey<String>()
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var _percentages: [Int] = []
    private var _errors: [TapOnMobileError] = []
    private var _queues: [String?] = []

    var percentages: [Int] { lock.withLock { _percentages } }
    var errors: [TapOnMobileError] { lock.withLock { _errors } }
    var queues: [String?] { lock.withLock { _queues } }

    private func note() {
        let queue = DispatchQueue.getSpecific(key: Self.queueKey)
        lock.withLock { _queues.append(queue) }
    }

    /// Runs `start` and returns when the listener hears the end.
    func run(_ start: () -> Void) async {
        await withCheckedContinuation { continuation in
            lock.withLock { self.continuation = continuation }
            start()
        }
    }

    private func finish() {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume()
    }

    func onPercentageUpdated(percentage: Int) {
        note()
        lock.withLock { _percentages.append(percentage) }
    }
    func onCompleted() {
        note()
        finish()
    }
    func onError(error: TapOnMobileError) {
        note()
        lock.withLock { _errors.append(error) }
        finish()
    }
}
