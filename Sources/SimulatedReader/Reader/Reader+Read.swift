import CardPayload
import Foundation
import SandboxCrypto

extension Reader {
    /// Shows the card screen for `amount` and plays the next ``CardScript``: the device side
    /// of a sale or a refund.
    ///
    /// - A tap within 40 s reads the card; an online-PIN card then asks for the PIN (60 s).
    ///   The card is sealed into a ``CardPayload`` with a fresh `readId` and `readAt` = the
    ///   tap's time on the device clock plus `serverTimeOffset`, in milliseconds.
    /// - No tap within 40 s shows Payment Timeout; the next attempt of the script is the
    ///   customer's Try Again, and with none left the read ends with ``ReaderOutcome/timeout``.
    /// - A cancel (the customer's, or ``cancelRead()``) ends it with ``ReaderOutcome/cancelled``.
    /// - The app going to the background ends it with ``ReaderOutcome/background`` and leaves
    ///   the reader unprepared.
    /// - No PIN within 60 s ends it with ``ReaderOutcome/timeout``.
    ///
    /// ```swift
    /// await reader.present(.tap(visa, after: 5))
    /// let result = try await reader.read(amount: 1250, currency: "EUR", region: "EU",
    ///                                    terminalId: "EU-T0101", readerKey: key,
    ///                                    serverTimeOffset: serverTime.timeIntervalSince(clock.now()))
    /// ```
    ///
    /// - Parameters:
    ///   - amount: Minor units shown on the card screen; above 0.
    ///   - currency: ISO 4217 code shown on the card screen.
    ///   - region: The host's region id, sealed into the associated data.
    ///   - terminalId: The logged-in terminal, sealed into the associated data.
    ///   - readerKey: The 32-byte key from the host's prepare answer.
    ///   - serverTimeOffset: Host time minus device time, in seconds.
    ///   - onEvent: Receives each ``ReaderEvent`` as it happens.
    ///   - selectApplication: Asked, after the tap, which application of a card with several pays
    ///     (``TestCard/applications``); nil: the kernel takes the card's first. Answering nil, or an
    ///     application the card does not have, ends the read with ``ReaderOutcome/cancelled``.
    /// - Returns: The sealed payload, or the reader outcome, with the events.
    /// - Throws: ``ReaderError/busy``, ``ReaderError/notPrepared``, ``ReaderError/appInBackground``,
    ///   ``ReaderError/invalidReaderKey``, ``ReaderError/invalidRequest``, ``ReaderError/notice(_:)``
    ///   (NFC disabled and other stopping notices), ``ReaderError/unreadableCard`` (a card whose PAN
    ///   or AID no kernel reads), ``ReaderError/sealingFailed``.
    public func read(
        amount: Int,
        currency: String,
        region: String,
        terminalId: String,
        readerKey: [UInt8],
        serverTimeOffset: TimeInterval = 0,
        onEvent: EventHandler? = nil,
        selectApplication: ApplicationSelector? = nil
    ) async throws(ReaderError) -> ReadResult {
        guard amount > 0, currency.utf8.count == 3, currency.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            throw .invalidRequest
        }
        guard readerKey.count == AESGCM.keyByteCount else { throw .invalidReaderKey }
        try machine.startReading()
        interruption = nil
        var session = Session(onEvent: onEvent)
        do throws(ReaderError) {
            let value = try await playCardScreen(
                &session, sealing: Sealing(region: region, terminalId: terminalId, key: readerKey, offset: serverTimeOffset),
                selectApplication: selectApplication)
            machine.readingFinished(keepsConnection: value.outcome != .background)
            return ReadResult(value: value.result, events: session.events)
        } catch {
            machine.readingFinished(keepsConnection: true)
            throw error
        }
    }

    /// Asks the customer for the PIN after the host answered `PIN_REQUESTED`, and seals it as a
    /// ``PinPayload`` with a fresh `readId`.
    ///
    /// What the customer types is the ``CardScript/pinOnRequest`` of the last read; the PIN is
    /// the card's own, or ``TestCard/defaultPin`` for a card without one.
    ///
    /// - Parameters:
    ///   - region: The host's region id.
    ///   - terminalId: The logged-in terminal.
    ///   - readerKey: The 32-byte reader key.
    ///   - serverTimeOffset: Host time minus device time, in seconds.
    ///   - onEvent: Receives each ``ReaderEvent``.
    /// - Returns: The sealed PIN payload, or ``ReaderOutcome/timeout`` (no PIN within 60 s),
    ///   ``ReaderOutcome/cancelled`` or ``ReaderOutcome/background``.
    /// - Throws: ``ReaderError/noCardRead`` when no card was read since the reader was prepared,
    ///   and the errors of ``read(amount:currency:region:terminalId:readerKey:serverTimeOffset:onEvent:)``.
    public func enterPin(
        region: String,
        terminalId: String,
        readerKey: [UInt8],
        serverTimeOffset: TimeInterval = 0,
        onEvent: EventHandler? = nil
    ) async throws(ReaderError) -> ReadResult {
        guard readerKey.count == AESGCM.keyByteCount else { throw .invalidReaderKey }
        guard let (card, entry) = lastRead else { throw .noCardRead }
        try machine.startReading()
        interruption = nil
        var session = Session(onEvent: onEvent)
        let sealing = Sealing(region: region, terminalId: terminalId, key: readerKey, offset: serverTimeOffset)
        do throws(ReaderError) {
            let value: (result: ReadResult.Value, outcome: ReaderOutcome?)
            switch await askPin(entry, for: card, &session) {
            case .failure(let outcome):
                value = (.outcome(outcome), outcome)
            case .success(let digits):
                await session.emit(.processing)
                let payload = PinPayload(
                    readId: ReadID.make(random: random), readAt: hostMilliseconds(clock.now(), offset: sealing.offset),
                    pin: digits)
                let sealed = try seal(payload, sealing)
                value = (.payload(SealedRead(sealed: sealed, readId: payload.readId, readAt: payload.readAt,
                                             brand: nil, maskedPan: nil)), nil)
            }
            machine.readingFinished(keepsConnection: value.outcome != .background)
            return ReadResult(value: value.result, events: session.events)
        } catch {
            machine.readingFinished(keepsConnection: true)
            throw error
        }
    }

    /// Checks the contactless reader without a transaction (TapOnMobile `doCardReaderTest`).
    ///
    /// It plays the first attempt of the next ``CardScript``: a tap within 40 s passes; no tap,
    /// a cancel or a background fails. Events: ``ReaderEvent/displayingCardReader``,
    /// ``ReaderEvent/processing`` (after a tap), ``ReaderEvent/completed(_:)``.
    ///
    /// ```swift
    /// await reader.present(.tap(visa))
    /// let ok = try await reader.testRead()   // true
    /// ```
    ///
    /// - Parameter onEvent: Receives each ``ReaderEvent``.
    /// - Returns: Whether a card was read.
    /// - Throws: ``ReaderError/busy``, ``ReaderError/notPrepared``, ``ReaderError/appInBackground``,
    ///   ``ReaderError/notice(_:)``.
    public func testRead(onEvent: EventHandler? = nil) async throws(ReaderError) -> Bool {
        try machine.startReading()
        interruption = nil
        var session = Session(onEvent: onEvent)
        let attempt = (script.cards.isEmpty ? CardScript.noTap() : script.cards.removeFirst()).attempts.first ?? .noTap
        do throws(ReaderError) {
            try await raiseReadNotices(&session)
        } catch {
            machine.readingFinished(keepsConnection: true)
            throw error
        }
        await session.emit(.displayingCardReader)
        var passed = false
        var wentToBackground = false
        switch attempt {
        case .tap(_, let after, _) where after < ReaderTimeouts.cardScreen:
            if let outcome = await pause(after) {
                wentToBackground = outcome == .background
            } else {
                await session.emit(.processing)
                passed = true
            }
        case .cancel(let after) where after < ReaderTimeouts.cardScreen:
            wentToBackground = await pause(after) == .background
        case .background(let after) where after < ReaderTimeouts.cardScreen:
            wentToBackground = true
            _ = await pause(after)
        default:
            wentToBackground = await pause(ReaderTimeouts.cardScreen) == .background
        }
        await session.emit(.completed(passed))
        machine.readingFinished(keepsConnection: !wentToBackground)
        return passed
    }
}

// MARK: - The card screen

extension Reader {
    /// The events of one operation, kept and passed on as they happen.
    struct Session {
        let onEvent: EventHandler?
        private(set) var events: [ReaderEvent] = []

        init(onEvent: EventHandler?) {
            self.onEvent = onEvent
        }

        mutating func emit(_ event: ReaderEvent) async {
            events.append(event)
            await onEvent?(event)
        }
    }

    /// What the payload is sealed for.
    struct Sealing {
        let region: String
        let terminalId: String
        let key: [UInt8]
        let offset: TimeInterval
    }

    /// A PIN typed in time, or the outcome that ended the PIN entry.
    enum PinAnswer {
        case success(String)
        case failure(ReaderOutcome)
    }

    private func raiseReadNotices(_ session: inout Session) async throws(ReaderError) {
        for notice in takeNotices(at: .read) {
            deliver(notice)
            await session.emit(.notice(notice))
            if notice.stops(at: .read) { throw .notice(notice) }
        }
    }

    /// Plays the next card script on the card screen.
    ///
    /// - Returns: The result, and the outcome when it is one (to decide the next state).
    private func playCardScreen(
        _ session: inout Session, sealing: Sealing, selectApplication: ApplicationSelector?
    ) async throws(ReaderError) -> (result: ReadResult.Value, outcome: ReaderOutcome?) {
        try await raiseReadNotices(&session)
        let cardScript = script.cards.isEmpty ? CardScript.noTap() : script.cards.removeFirst()
        let attempts = cardScript.attempts.isEmpty ? [CardScript.Attempt.noTap] : cardScript.attempts
        func end(_ outcome: ReaderOutcome) -> (result: ReadResult.Value, outcome: ReaderOutcome?) {
            (.outcome(outcome), outcome)
        }

        for (index, attempt) in attempts.enumerated() {
            if index > 0 { await session.emit(.tryAgain) }
            await session.emit(.displayingCardReader)
            switch attempt {
            case .tap(let card, let after, let pin) where after < ReaderTimeouts.cardScreen:
                if let outcome = await pause(after) { return end(outcome) }
                if let reason = Self.unreadable(card) { throw .unreadableCard(reason) }
                let tappedAt = clock.now()
                await session.emit(.cardRead(card.brand))
                var application: CardApplication?
                if card.applications.count > 1, let selectApplication {
                    guard let chosen = await selectApplication(card.applications), card.applications.contains(chosen) else {
                        return end(.cancelled)
                    }
                    application = chosen
                }
                var digits: String?
                if card.cvm == .onlinePin, pin.digits != .deferred {
                    switch await askPin(pin, for: card, &session) {
                    case .failure(let outcome): return end(outcome)
                    case .success(let typed): digits = typed
                    }
                }
                await session.emit(.processing)
                let payload = CardPayload(
                    readId: ReadID.make(random: random), readAt: hostMilliseconds(tappedAt, offset: sealing.offset),
                    card: card.cardData(paying: application), pin: digits)
                let sealed = try seal(payload, sealing)
                lastRead = (card, cardScript.pinOnRequest)
                let read = SealedRead(
                    sealed: sealed, readId: payload.readId, readAt: payload.readAt, brand: card.brand,
                    maskedPan: card.maskedPan, aid: application?.aid ?? card.aid,
                    applicationLabel: application?.applicationLabel ?? card.applicationLabel)
                return (.payload(read), nil)
            case .cancel(let after) where after < ReaderTimeouts.cardScreen:
                return end(await pause(after) ?? .cancelled)
            case .background(let after) where after < ReaderTimeouts.cardScreen:
                return end(await pause(after) ?? .background)
            case .tap, .cancel, .background, .noTap:
                if let outcome = await pause(ReaderTimeouts.cardScreen) { return end(outcome) }
                await session.emit(.paymentTimeout)
            }
        }
        return end(.timeout)
    }

    /// What a contactless kernel could not read of `card`, or `nil`.
    ///
    /// A real reader reads what the card says and leaves judging it to the host, so a PAN that
    /// fails Luhn, country `ZZ` or a brand the PAN does not fit are sealed; only data the card
    /// cannot carry at all stops the read: the PAN is 12 to 19 digits (EMV tag 5A), the AID
    /// 5 to 16 bytes (the application the kernel selects).
    static func unreadable(_ card: TestCard) -> String? {
        let pan = card.pan.utf8
        guard (12...19).contains(pan.count), pan.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return "the PAN is not 12 to 19 digits"
        }
        let aid = card.aid.utf8
        guard (10...32).contains(aid.count), aid.count.isMultiple(of: 2), card.aid.allSatisfy(\.isHexDigit) else {
            return "the AID is not 5 to 16 bytes of hex"
        }
        return nil
    }

    /// Shows the PIN pad and waits for the customer, at most 60 s.
    private func askPin(_ entry: PinEntry, for card: TestCard, _ session: inout Session) async -> PinAnswer {
        await session.emit(.pinEntryRequested)
        guard let digits = entry.typedDigits(for: card) else {
            return .failure(await pause(ReaderTimeouts.pin) ?? .timeout)
        }
        if let outcome = await pause(entry.after) { return .failure(outcome) }
        await session.emit(.pinEntered)
        return .success(digits)
    }

    private func seal(_ payload: some Encodable, _ sealing: Sealing) throws(ReaderError) -> String {
        do throws(PayloadError) {
            return try PayloadSealer.seal(
                payload, key: sealing.key, region: sealing.region, terminalId: sealing.terminalId, random: random)
        } catch {
            throw .sealingFailed(error.message)
        }
    }
}
