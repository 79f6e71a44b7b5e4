import CardPayload
import Foundation

extension Reader {
    /// Prepares the reader so a read can start at once (TapOnMobile `prepareDevice()`,
    /// Geopagos `prepareConnection`, MONEI `prepare(token:)`).
    ///
    /// Progress goes to every listener, from 0 to 100:
    ///
    /// | % | step |
    /// |---|---|
    /// | 0 | started |
    /// | 10 | location permission and, on the first prepare, a fix (up to 15 s) |
    /// | 25 | token accepted by Apple; a refused one is replaced through the token provider |
    /// | 40 | reader notices checked |
    /// | 60 | account linked (the app's decision, then Apple's terms), if not linked yet or a relink was asked |
    /// | 70 … 100 | security checks, ``ReaderScript/preparationSeconds`` on the clock |
    ///
    /// then ``PrepareListener/onCompleted()``, or ``PrepareListener/onError(error:)`` where it
    /// stops. Preparing a ready reader again runs the whole flow again.
    ///
    /// ```swift
    /// await reader.addListener(progressBar)
    /// try await reader.prepare(token: token)
    /// ```
    ///
    /// - Parameter token: The reader token; `nil` reuses the connection's token, or asks the
    ///   token provider with ``TokenRequestReason/setup`` after a ``clear()``.
    /// - Throws: ``ReaderError/unsupported(_:)``, ``ReaderError/busy``, ``ReaderError/appInBackground``,
    ///   ``ReaderError/locationDenied``, ``ReaderError/locationTimeout``, ``ReaderError/tokenCancelled``,
    ///   ``ReaderError/notice(_:)``, ``ReaderError/accountLinkingCancelled``, and what a token check
    ///   throws (``ReaderError/connectionFailed``).
    public func prepare(token: String? = nil) async throws(ReaderError) {
        if case .unsupported(let reason) = support {
            let error = ReaderError.unsupported(reason)
            listeners.forEach { $0.onError(error: error) }
            throw error
        }
        try machine.startPreparing()
        interruption = nil
        do throws(ReaderError) {
            try await runPreparation(token: token)
        } catch {
            machine.preparingFinished(succeeded: false)
            listeners.forEach { $0.onError(error: error) }
            throw error
        }
        machine.preparingFinished(succeeded: true)
        listeners.forEach { $0.onCompleted() }
    }

    private func runPreparation(token given: String?) async throws(ReaderError) {
        percentage = 0
        listeners.forEach { $0.onPercentageUpdated(percentage: 0) }

        if let location, await location.lastFix == nil {
            _ = try await location.requestLocation()
        } else if let location, await !location.isLocationAuthorized {
            throw .locationDenied
        }
        try report(10)

        let relink = try await acceptToken(given)
        try report(25)

        for notice in takeNotices(at: .prepare) {
            deliver(notice)
            if notice.stops(at: .prepare) { throw .notice(notice) }
        }
        try report(40)

        if !isAccountLinked || relink {
            try await linkAccount()
        }
        try report(60)

        for step in [70, 80, 90, 100] {
            _ = await pause(script.preparationSeconds / 4)
            try report(step)
        }
    }

    /// Records and announces progress, unless the app left for the background meanwhile.
    private func report(_ value: Int) throws(ReaderError) {
        guard !machine.isInBackground else { throw .appInBackground }
        guard value > percentage else { return }
        percentage = value
        listeners.forEach { $0.onPercentageUpdated(percentage: value) }
    }

    /// Supplies tokens until Apple accepts one or the app gives up.
    ///
    /// - Returns: Whether the accepted token asks for a relink.
    private func acceptToken(_ given: String?) async throws(ReaderError) -> Bool {
        var request: TokenRequest
        if let token = given ?? currentToken {
            request = .provide(token, requiresRelink: false)
        } else {
            request = await tokenProvider(.setup)
        }
        while true {
            guard !machine.isInBackground else { throw .appInBackground }
            guard case .provide(let token, let relink) = request else { throw .tokenCancelled }
            let verdict: TokenVerdict
            if token.isEmpty {
                verdict = .invalid("empty token")
            } else if !script.tokenVerdicts.isEmpty {
                verdict = script.tokenVerdicts.removeFirst()
            } else if let tokenCheck {
                verdict = try await tokenCheck(token)
            } else {
                verdict = .valid
            }
            switch verdict {
            case .valid:
                currentToken = token
                return relink
            case .expired:
                request = await tokenProvider(.rejected(.expired))
            case .invalid(let reason):
                request = await tokenProvider(.rejected(.invalid(reason)))
            }
        }
    }

    /// Asks the app, shows Apple's terms, and asks again while the merchant rejects them.
    private func linkAccount() async throws(ReaderError) {
        var reason = AccountLinkingReason.setup
        while true {
            guard await accountLinking(reason) == .confirm else { throw .accountLinkingCancelled }
            guard !machine.isInBackground else { throw .appInBackground }
            let response = script.termsResponses.isEmpty ? TermsResponse.accept : script.termsResponses.removeFirst()
            if response == .accept {
                isAccountLinked = true
                return
            }
            reason = .deniedByUser
        }
    }

    /// Ends the prepared connection (Geopagos `clearConnection`).
    ///
    /// The next ``prepare(token:)`` without a token asks the token provider for a new one
    /// (``TokenRequestReason/setup``), which is how an app switches country or currency.
    /// With no connection prepared, or on an unsupported device, it succeeds at once.
    ///
    /// - Throws: ``ReaderError/busy`` while a prepare, read or clear runs.
    public func clear() async throws(ReaderError) {
        guard support.isSupported else { return }
        guard try machine.startClearing() else {
            currentToken = nil
            return
        }
        await clock.sleep(for: script.clearSeconds)
        currentToken = nil
        lastRead = nil
        percentage = 0
        machine.clearingFinished()
    }

    /// Shows Apple's "How to Tap" merchant education (Geopagos `presentTapToPayDiscovery`,
    /// MONEI `presentEducation`).
    ///
    /// It needs the merchant's account to be linked first (the seed shows it after the terms
    /// are accepted); a scripted ``ReaderScript/educationFailures`` entry makes it fail once.
    ///
    /// - Returns: ``EducationResult/success``, or why it could not be shown.
    public func presentEducation() -> EducationResult {
        guard support.isSupported else {
            return .fail(.osUpdateRequired, message: "Tap to Pay on iPhone is not supported on this device")
        }
        guard isAccountLinked else {
            return .fail(.unknown, message: "the merchant has not accepted the Tap to Pay on iPhone terms yet")
        }
        if !script.educationFailures.isEmpty {
            let failure = script.educationFailures.removeFirst()
            return .fail(failure, message: failure == .osUpdateRequired ? "update iOS to show merchant education" : "presentation failed")
        }
        educationPresentations += 1
        return .success
    }
}
