import Foundation
import SandboxWire

/// Both registrations: the merchant-portal challenge code and the backend-to-backend token.
/// The device id is the installation id; the device secret is kept once a registration completes.
extension TapOnMobile {
    /// `pin_required` at the end of a registration is a registration error: no session exists yet.
    private static func registrationStep<T>(_ result: Result<T, TapOnMobileError>) -> Result<T, TapOnMobileError> {
        result.mapError { error in
            guard case .session(let session) = error, session.kind == .pinRequired else { return error }
            return .registration(
                RegistrationError(.pinRequired, code: session.code, message: session.message, status: session.status, field: session.field))
        }
    }

    /// Keeps a completed registration; any older session ends.
    private func keep(_ completed: RegistrationResult, context: Context) -> Result<Success, TapOnMobileError> {
        do throws(TapOnMobileError) {
            try context.store.update {
                $0.registration = DeviceState.Registration(
                    region: context.region, terminalId: completed.terminalId, deviceSecret: completed.deviceSecret,
                    registeredAt: completed.registeredAt)
                $0.lastTransaction = nil
            }
        } catch {
            return .failure(error)
        }
        dropSession()
        return .success(Success())
    }

    // MARK: Merchant portal

    /// Starts a portal registration: the answer is the challenge code (`XXXX-XXXX`) the merchant
    /// types into the portal, which gives a back-office code in return.
    ///
    /// - Returns: The challenge code, or `registration(.alreadyRegistered)` and the other registration errors.
    public func beginRegistration() async -> Result<String, TapOnMobileError> {
        await with(context) { context in
            let state: DeviceState
            do throws(TapOnMobileError) { state = try context.store.load() } catch { return .failure(error) }
            let device = context.reader.device
            return await send(
                context.client, "POST", "/terminal/v1/registrations",
                body: TerminalBodies.Begin(deviceId: state.installationId, deviceModel: device.model, osVersion: device.osVersion),
                as: RegistrationChallenge.self
            ).map(\.challengeCode)
        }
    }

    /// Checks a back-office code before ``endRegistration(backofficeCode:pin:)``.
    ///
    /// - Parameter challengeCode: The back-office code the portal gave (`EU-483920`).
    /// - Returns: Whether it would be accepted now.
    public func verifyChallengeCode(challengeCode: String) async -> Result<Bool, TapOnMobileError> {
        await with(context) { context in
            return await send(
                context.client, "POST", "/terminal/v1/registrations/verify-code", body: TerminalBodies.Code(code: challengeCode),
                as: RegistrationVerification.self
            ).map(\.valid)
        }
    }

    /// Completes a portal registration with the back-office code and the secure code to log in with.
    ///
    /// - Parameters:
    ///   - backofficeCode: The portal's code for this device's challenge.
    ///   - pin: The secure code, 4 to 8 digits.
    /// - Returns: `Success`; the device is registered on the terminal the portal chose; or
    ///   `registration(.pinRequired)` without a secure code on a terminal that needs one.
    public func endRegistration(backofficeCode: String, pin: String?) async -> Result<Success, TapOnMobileError> {
        await with(context) { context in
            let state: DeviceState
            do throws(TapOnMobileError) { state = try context.store.load() } catch { return .failure(error) }
            return Self.registrationStep(
                await send(
                    context.client, "POST", "/terminal/v1/registrations/complete",
                    body: TerminalBodies.Complete(deviceId: state.installationId, backofficeCode: backofficeCode, pin: pin),
                    as: RegistrationResult.self)
            ).flatMap { keep($0, context: context) }
        }
    }

    // MARK: Backend to backend

    /// Step 1 of a token registration: whether the token can be used (it is then "verified").
    ///
    /// The device that began a registration may verify it again to finish it (after its `end`
    /// was refused for want of a secure code, say), until the token expires.
    ///
    /// - Parameter registrationToken: `rt_<region>_…` from the merchant API or the portal.
    /// - Returns: `true` when valid; `false` for a token that would fail (unknown, expired, used,
    ///   another region's, begun by another device); ``checkRegistrationToken(registrationToken:)`` says why.
    public func verifyRegistrationToken(registrationToken: String) async -> Result<Bool, TapOnMobileError> {
        await checkRegistrationToken(registrationToken: registrationToken).map(\.valid)
    }

    /// Step 1 with the host's whole answer (not in the seed): why a token cannot be used, or its
    /// terminal and whether ``endTokenRegistration(registrationToken:pin:)`` will need a secure code.
    ///
    /// - Parameter registrationToken: `rt_<region>_…` from the merchant API or the portal.
    /// - Returns: The check; a refused token is a success whose ``RegistrationTokenCheck/refusal``
    ///   is the error the next step would give.
    public func checkRegistrationToken(registrationToken: String) async -> Result<RegistrationTokenCheck, TapOnMobileError> {
        await with(context) { context in
            let state: DeviceState
            do throws(TapOnMobileError) { state = try context.store.load() } catch { return .failure(error) }
            return await send(
                context.client, "POST", "/terminal/v1/token-registrations/verify",
                body: TerminalBodies.Token(registrationToken: registrationToken, deviceId: state.installationId), as: RegistrationVerification.self
            ).map { answer in
                RegistrationTokenCheck(
                    valid: answer.valid, terminalId: answer.terminalId, pinRequired: answer.pinRequired ?? false,
                    refusal: answer.valid
                        ? nil
                        : .host(
                            status: nil, code: answer.reason.map { ErrorCode(rawValue: $0) } ?? .registrationTokenInvalid,
                            message: answer.message ?? "The host does not accept this registration token.", field: "registrationToken"))
            }
        }
    }

    /// Step 2: this device begins the registration the token allows.
    ///
    /// - Returns: `Success`, or `registration(.outOfOrder)` before a verify, and the other registration errors.
    public func beginTokenRegistration(registrationToken: String) async -> Result<Success, TapOnMobileError> {
        await with(context) { context in
            let state: DeviceState
            do throws(TapOnMobileError) { state = try context.store.load() } catch { return .failure(error) }
            return await send(
                context.client, "POST", "/terminal/v1/token-registrations/begin",
                body: TerminalBodies.TokenBegin(registrationToken: registrationToken, deviceId: state.installationId, deviceModel: context.reader.device.model),
                as: NoContent.self
            ).map { _ in Success() }
        }
    }

    /// Step 3: the same device ends the registration, with the secure code (none is needed on an
    /// auto-login terminal). A refused end leaves the registration begun: the device may end it
    /// again until the token expires.
    ///
    /// - Returns: `Success`; the device is registered on the token's terminal; or
    ///   `registration(.pinRequired)` without a secure code on a terminal that needs one.
    public func endTokenRegistration(registrationToken: String, pin: String?) async -> Result<Success, TapOnMobileError> {
        await with(context) { context in
            let state: DeviceState
            do throws(TapOnMobileError) { state = try context.store.load() } catch { return .failure(error) }
            return Self.registrationStep(
                await send(
                    context.client, "POST", "/terminal/v1/token-registrations/end",
                    body: TerminalBodies.TokenEnd(registrationToken: registrationToken, deviceId: state.installationId, pin: pin),
                    as: RegistrationResult.self)
            ).flatMap { keep($0, context: context) }
        }
    }
}
