import Foundation
import SandboxWire
import SimulatedReader

/// Login, session, the terminal's settings, secure code, relink, support number, device status
/// and unregister.
extension TapOnMobile {
    /// Logs in with the secure code chosen at registration; `nil` on an auto-login terminal.
    ///
    /// A new login ends the device's older session.
    ///
    /// - Returns: `Success`, or `session(.invalidPin)`, `session(.locked)`, `session(.pinRequired)`,
    ///   `session(.terminalUnregistered)`, `session(.certificatesExpired)` (after 90 days without login:
    ///   the device is unregistered and ``CERTIFICATES_EXPIRED_UNREGISTERED_NOTIFICATION`` is posted).
    public func doLogin(pin: String?) async -> Result<Success, TapOnMobileError> {
        await with(registered) { registered in
            let result = await send(
                registered.context.client, "POST", "/terminal/v1/sessions",
                body: TerminalBodies.Login(deviceId: registered.deviceId, deviceSecret: registered.registration.deviceSecret, pin: pin),
                as: LoginSession.self)
            return result.map { answer in
                let expires = answer.expiresAtUnix ?? WireTime.date(from: answer.expiresAt)?.timeIntervalSince1970 ?? 0
                let store = runtime.withLockedValue { runtime in
                    runtime.session = Session(token: answer.sessionToken, expiresAtUnix: expires)
                    return runtime.store
                }
                try? store.update {
                    $0.session = .init(region: registered.registration.region, token: answer.sessionToken, expiresAtUnix: expires)
                }
                return Success()
            }
        }
    }

    /// Ends the session. A session that had already ended counts as logged out.
    public func doLogout() async -> Result<Success, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            // Not `send`: an already ended session is what logout wants, not news to announce.
            let result = await loggedIn.client.send(
                "DELETE", "/terminal/v1/sessions/current", bearer: loggedIn.token, as: NoContent.self)
            switch result {
            case .success, .failure(.session(.sessionExpired)):
                dropSession()
                return .success(Success())
            case .failure(let error):
                observe(error)
                return .failure(error)
            }
        }
    }

    /// When the session ends, in seconds since 1970 on the host's clock.
    ///
    /// - Returns: The timestamp, or `session(.sessionExpired)` once it has ended.
    public func getSessionExpiration() async -> Result<Double, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            await send(loggedIn.client, "GET", "/terminal/v1/sessions/current", bearer: loggedIn.token, as: SessionState.self)
                .map { $0.expiresAtUnix ?? WireTime.date(from: $0.expiresAt)?.timeIntervalSince1970 ?? 0 }
        }
    }

    /// Whether the terminal logs in without a secure code, and how it may be registered.
    public func getInfoInit() async -> Result<InfoInit, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            await send(loggedIn.client, "GET", "/terminal/v1/info-init", bearer: loggedIn.token, as: InfoInit.self)
        }
    }

    /// The terminal's configuration: currency, limits, tips, refunds, APMs, links.
    public func getTerminalInfo() async -> Result<TerminalInfo, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            await send(loggedIn.client, "GET", "/terminal/v1/terminal", bearer: loggedIn.token, as: TerminalInfo.self)
        }
    }

    /// Changes the secure code (a wrong old code counts towards the lock).
    public func updateSecretCode(oldSecretCode: String, newSecretCode: String) async -> Result<Success, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            return await send(
                loggedIn.client, "PUT", "/terminal/v1/secret-code", body: TerminalBodies.SecretCode(oldSecretCode: oldSecretCode, newSecretCode: newSecretCode),
                bearer: loggedIn.token, as: NoContent.self
            ).map { _ in Success() }
        }
    }

    /// Signs Apple's Tap to Pay terms again for the terminal profile's merchant.
    ///
    /// The host records the relink; the reader shows Apple's terms at once when it is prepared,
    /// otherwise at the next ``prepareDevice()``.
    ///
    /// - Returns: `Success`, or `cardReaderSession(.accountLinkingCancelled)` when the merchant refuses.
    public func relinkAccount() async -> Result<Success, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            let result = await send(loggedIn.client, "POST", "/terminal/v1/relink", bearer: loggedIn.token, as: RelinkedAccount.self)
            guard case .success = result else { return result.map { _ in Success() } }
            let (reader, slot, prepared) = runtime.withLockedValue { ($0.reader, $0.tokenSlot, $0.readerSession != nil) }
            slot.withLockedValue { $0.relink = true }
            guard prepared, await reader.state == .ready else { return .success(Success()) }
            do throws(ReaderError) {
                try await reader.clear()
                try await reader.prepare(token: nil)
                return .success(Success())
            } catch {
                runtime.withLockedValue { $0.readerSession = nil }
                return .failure(.reader(error))
            }
        }
    }

    /// The device's support number (`SN-` and 8 digits), the same for every call on this
    /// installation: kept on the device once the host gave it.
    public func loadSupportNumber() async -> Result<String, TapOnMobileError> {
        await with(context) { context in
            let state: DeviceState
            do throws(TapOnMobileError) { state = try context.store.load() } catch { return .failure(error) }
            if let number = state.supportNumber { return .success(number) }
            let result = await send(
                context.client, "POST", "/terminal/v1/support-number", body: TerminalBodies.Support(deviceId: state.installationId),
                as: SupportNumber.self)
            guard case .success(let answer) = result else { return result.map(\.supportNumber) }
            do throws(TapOnMobileError) {
                try context.store.update { $0.supportNumber = answer.supportNumber }
            } catch {
                return .failure(error)
            }
            return .success(answer.supportNumber)
        }
    }

    /// Whether the device is registered on the current environment: it must hold a registration
    /// and the host must still know it. A registration the host no longer knows is forgotten.
    public func isDeviceRegistered() async -> Result<Bool, TapOnMobileError> {
        let registered: Registered
        do throws(TapOnMobileError) {
            registered = try self.registered()
        } catch .session(.terminalUnregistered) {
            return .success(false)
        } catch {
            return .failure(error)
        }
        let result = await send(
            registered.context.client, "POST", "/terminal/v1/devices/status", body: TerminalBodies.Device(registered), as: DeviceStatus.self)
        guard case .success(let answer) = result else { return result.map(\.registered) }
        if !answer.registered { forgetRegistration() }
        return .success(answer.registered)
    }

    /// The terminal this device is registered on.
    ///
    /// - Returns: The terminal id, or `session(.terminalUnregistered)`.
    public func getTerminalID() async -> Result<String, TapOnMobileError> {
        await with(registered) { registered in .success(registered.registration.terminalId) }
    }

    /// Unregisters the device: the host frees the terminal, and the device forgets its
    /// registration, session and last transaction (its installation id and support number stay).
    ///
    /// A device the host had already unregistered is simply forgotten.
    public func unregister() async -> Result<Success, TapOnMobileError> {
        await with(registered) { registered in
            let result = await send(
                registered.context.client, "POST", "/terminal/v1/unregister", body: TerminalBodies.Device(registered), as: NoContent.self)
            switch result {
            case .success, .failure(.session(.terminalUnregistered)):
                forgetRegistration()
                return .success(Success())
            case .failure(let error):
                return .failure(error)
            }
        }
    }
}

extension TerminalBodies.Device {
    /// The credential of a registered device.
    init(_ registered: TapOnMobile.Registered) {
        self.init(deviceId: registered.deviceId, deviceSecret: registered.registration.deviceSecret)
    }
}
