import Foundation
import SandboxWire
import SimulatedReader

/// Device preparation: the host's reader configuration, then the reader's own prepare, with
/// progress to the listeners.
extension TapOnMobile {
    /// Passes the reader's percentages on to the SDK's listeners.
    private final class ProgressRelay: PrepareListener, @unchecked Sendable {
        weak var sdk: TapOnMobile?

        init(_ sdk: TapOnMobile) {
            self.sdk = sdk
        }

        func onPercentageUpdated(percentage: Int) {
            sdk?.report(percentage: percentage)
        }

        // The SDK reports the end itself, once the whole preparation is over.
        func onCompleted() {}
        func onError(error: ReaderError) {}
    }

    private func report(percentage: Int) {
        let listeners = runtime.withLockedValue {
            $0.percentage = percentage
            return $0.listeners
        }
        tell(listeners) { $0.onPercentageUpdated(percentage: percentage) }
    }

    /// Calls each of `listeners` on ``SandboxConfiguration/callbackQueue`` (in order), or here when there is none.
    private func tell(_ listeners: [any PrepareDeviceListener], _ call: @escaping @Sendable (any PrepareDeviceListener) -> Void) {
        let app = AppObject(listeners)
        AppCallbacks.deliver(on: configuration.callbackQueue) { app.object.forEach(call) }
    }

    /// Adds a listener of ``prepareDevice()``; adding the same object twice has no effect.
    public func addPrepareDeviceListener(_ listener: any PrepareDeviceListener) {
        runtime.withLockedValue {
            guard !$0.listeners.contains(where: { $0 === listener }) else { return }
            $0.listeners.append(listener)
        }
    }

    /// Removes a listener; it receives nothing more.
    public func removePrepareDeviceListener(_ listener: any PrepareDeviceListener) {
        runtime.withLockedValue { $0.listeners.removeAll { $0 === listener } }
    }

    /// Removes every listener.
    public func removeAllPrepareDeviceListeners() {
        runtime.withLockedValue { $0.listeners.removeAll() }
    }

    /// The last percentage reported (it keeps its value after the app went to the background:
    /// call ``prepareDevice()`` again for a fresh one).
    public func getPrepareDevicePercentage() -> Int {
        runtime.withLockedValue { $0.percentage }
    }

    /// Prepares the device for Tap to Pay on iPhone, in the background: listeners receive 0 … 100,
    /// then `onCompleted()`, or `onError(error:)`.
    ///
    /// Call it after login and whenever the app becomes active. Errors: `session(.sessionError)`
    /// when not logged in, `session(.terminalUnregistered)` when not registered, and the reader's
    /// (`cardReaderSession(.accountLinkingCancelled)`, `location(.denied)` …).
    public func prepareDevice() {
        Task { _ = await self.prepareDeviceAndWait() }
    }

    /// ``prepareDevice()`` that also returns when the preparation is over (not in the seed; for
    /// tests and `tapsim`). Listeners are told exactly as by ``prepareDevice()``.
    ///
    /// - Returns: `Success` when the reader is ready for a payment.
    @discardableResult
    public func prepareDeviceAndWait() async -> Result<Success, TapOnMobileError> {
        let result = await prepare()
        let listeners = runtime.withLockedValue { $0.listeners }
        switch result {
        case .success: tell(listeners) { $0.onCompleted() }
        case .failure(let error): tell(listeners) { $0.onError(error: error) }
        }
        return result
    }

    private func prepare() async -> Result<Success, TapOnMobileError> {
        await with(loggedIn) { loggedIn in
            let reader = loggedIn.registered.context.reader
            guard reader.isTapToPaySupported else { return .failure(.reader(.unsupported(unsupportedReason(reader)))) }
            let result = await send(loggedIn.client, "POST", "/terminal/v1/reader/prepare", bearer: loggedIn.token, as: ReaderConfiguration.self)
            guard case .success(let answer) = result else { return result.map { _ in Success() } }
            let clock = runtime.withLockedValue { $0.configuration.clock }
            // The payload's readAt is on the host's clock: remember how far the device's differs.
            guard let keys = ReaderSealing(answer, now: clock.now()) else {
                return .failure(.network(NetworkError(.invalidResponse, message: "The reader configuration is not readable.")))
            }
            let (key, offset) = (keys.key, keys.offset)
            let (slot, relinkWanted) = runtime.withLockedValue { ($0.tokenSlot, $0.tokenSlot.withLockedValue { $0.relink }) }
            slot.withLockedValue { $0.token = "tapsandbox-reader:\(answer.keyId)" }

            let relay = ProgressRelay(self)
            await reader.addListener(relay)
            var failure: ReaderError?
            do throws(ReaderError) {
                if relinkWanted { try await reader.clear() }
                // With no token the reader asks the provider, which asks for the relink.
                try await reader.prepare(token: relinkWanted ? nil : slot.withLockedValue { $0.token })
            } catch {
                failure = error
            }
            await reader.removeListener(relay)
            await refreshLocationAuthorization()
            if let failure {
                runtime.withLockedValue { $0.readerSession = nil }
                return .failure(.reader(failure))
            }
            runtime.withLockedValue { $0.readerSession = ReaderSession(key: key, keyId: answer.keyId, offset: offset) }
            return .success(Success())
        }
    }

    private func unsupportedReason(_ reader: Reader) -> UnsupportedReason {
        if case .unsupported(let reason) = reader.support { return reason }
        return .malformedModel(model: reader.device.model)
    }
}
