import CardPayload
import Foundation
import SandboxCrypto
import SimulatedReader
import Testing

@Suite("Reader: card screen scripts")
struct ReaderReadTests {
    @Test func aTapAfter5SecondsGivesAPayloadReadAtTheTapTime() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.tap(Fixtures.card("visa"), after: 5))
        let screenShown = clock.now()
        let result = try await Fixtures.read(reader)

        let payload = try Fixtures.open(result)
        #expect(payload.readAt == Fixtures.milliseconds(screenShown.addingTimeInterval(5)))
        #expect(payload.card == Fixtures.card("visa").cardData)
        #expect(payload.pin == nil)
        #expect(ReadID.isValid(payload.readId))
        #expect(result.events == [.displayingCardReader, .cardRead(.visa), .processing])
        #expect(result.read?.maskedPan == "476173******0011")
        #expect(result.read?.validUntil == payload.readAt + 120_000)
        #expect(await reader.state == .ready)
    }

    @Test func readAtIsOnTheHostClock() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.tap(Fixtures.card("visa"), after: 2))
        let shown = clock.now()
        let payload = try Fixtures.open(try await Fixtures.read(reader, offset: 3600.5))
        #expect(payload.readAt == Fixtures.milliseconds(shown.addingTimeInterval(2 + 3600.5)))
    }

    @Test func everyReadHasAFreshReadId() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa")))
        await reader.present(.tap(Fixtures.card("visa")))
        let first = try Fixtures.open(try await Fixtures.read(reader))
        let second = try Fixtures.open(try await Fixtures.read(reader))
        #expect(first.readId != second.readId)
    }

    @Test func noTapTimesOutAt40Seconds() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.noTap())
        let shown = clock.now()
        let result = try await Fixtures.read(reader)
        #expect(result.outcome == .timeout)
        #expect(result.sealedPayload == nil)
        #expect(result.events == [.displayingCardReader, .paymentTimeout])
        #expect(clock.now().timeIntervalSince(shown) == 40)
        #expect(await reader.state == .ready)
    }

    @Test func aTapAfter40SecondsIsTooLate() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa"), after: 40))
        #expect(try await Fixtures.read(reader).outcome == .timeout)
    }

    @Test func tryAgainAfterTheTimeoutThenATapWorks() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.noTap(thenTryAgain: .tap(Fixtures.card("mc"), after: 3)))
        let shown = clock.now()
        let result = try await Fixtures.read(reader)
        let payload = try Fixtures.open(result)
        #expect(payload.card?.brand == .mastercard)
        #expect(payload.readAt == Fixtures.milliseconds(shown.addingTimeInterval(43)))
        #expect(result.events == [
            .displayingCardReader, .paymentTimeout, .tryAgain, .displayingCardReader, .cardRead(.mastercard), .processing,
        ])
    }

    @Test func nobodyTappingAtAllTimesOut() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        // Nothing queued: nobody taps.
        #expect(try await Fixtures.read(reader).outcome == .timeout)
    }

    @Test func theCustomerCancels() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.cancel(after: 10))
        let shown = clock.now()
        let result = try await Fixtures.read(reader)
        #expect(result.outcome == .cancelled)
        #expect(clock.now().timeIntervalSince(shown) == 10)
        #expect(await reader.state == .ready)
    }

    @Test func theMerchantCancels() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa"), after: 20))
        let result = try await Fixtures.read(reader) { event in
            if event == .displayingCardReader { await reader.cancelRead() }
        }
        #expect(result.outcome == .cancelled)
    }

    @Test func theAppGoesToTheBackgroundMidRead() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.background(after: 8))
        let result = try await Fixtures.read(reader)
        #expect(result.outcome == .background)
        #expect(await reader.needsPrepare)
        await #expect(throws: ReaderError.notPrepared) { try await Fixtures.read(reader) }
    }

    @Test func appDidEnterBackgroundDuringAReadEndsIt() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa"), after: 20))
        let result = try await Fixtures.read(reader) { event in
            if event == .displayingCardReader { await reader.appDidEnterBackground() }
        }
        #expect(result.outcome == .background)
        #expect(await reader.isInBackground)
        await reader.appWillEnterForeground()
        #expect(await reader.needsPrepare)
    }

    @Test func anOnlinePinCardWithTheRightPin() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.tap(Fixtures.card("mc-pin"), after: 5, pin: .correct(after: 7)))
        let shown = clock.now()
        let result = try await Fixtures.read(reader)
        let payload = try Fixtures.open(result)
        #expect(payload.pin == "1234")
        #expect(payload.card?.cvm == .onlinePin)
        // readAt is the tap, not the end of PIN entry.
        #expect(payload.readAt == Fixtures.milliseconds(shown.addingTimeInterval(5)))
        #expect(clock.now().timeIntervalSince(shown) == 12)
        #expect(result.events == [
            .displayingCardReader, .cardRead(.mastercard), .pinEntryRequested, .pinEntered, .processing,
        ])
    }

    @Test func anOnlinePinCardWithAWrongPin() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa-pin"), pin: .wrong))
        let payload = try Fixtures.open(try await Fixtures.read(reader))
        let pin = try #require(payload.pin)
        #expect(pin != "1234")
        #expect(pin.count == 4)
    }

    /// A real reader reads what the card says: a malformed card is sealed as it is, and the
    /// host's opening is what refuses it.
    @Test func aMalformedCardIsSealedAsItSaysAndRefusedWhenOpened() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa-bad-luhn")))
        let result = try await Fixtures.read(reader)
        #expect(result.events == [.displayingCardReader, .cardRead(.visa), .processing])
        #expect(throws: PayloadError.invalidPAN) { try Fixtures.open(result) }
    }

    /// A PAN or AID no card can carry stops the read on the reader, with nothing sealed.
    @Test(arguments: [("4761-7300-0000-0011", "A0000000031010", "the PAN is not 12 to 19 digits"),
                      ("4761730000000011", "A0000000031", "the AID is not 5 to 16 bytes of hex")])
    func aCardNoKernelCanReadStopsTheRead(pan: String, aid: String, reason: String) async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        var card = Fixtures.card("visa")
        card.pan = pan
        card.aid = aid
        await reader.present(.tap(card))
        do throws(ReaderError) {
            let result = try await Fixtures.read(reader)
            Issue.record("read \(result.value)")
        } catch {
            #expect(error == .unreadableCard)
            #expect(error.message == "the card could not be read: \(reason)")
        }
        #expect(await reader.state == .ready, "the reader is free for the next tap")
    }

    @Test(arguments: [("correct", PinEntry.correct), ("wrong", .wrong), ("none", .notEntered), ("9876", .typed("9876"))])
    func aPinEntryIsNamedOnTheCommandLine(argument: String, entry: PinEntry) {
        #expect(PinEntry(argument: argument) == entry)
    }

    @Test(arguments: ["", "Wrong", "123", "1234567890123", "12a4"])
    func anUnknownPinEntryIsRefused(argument: String) {
        #expect(PinEntry(argument: argument) == nil)
    }

    @Test func noPinWithin60SecondsTimesOut() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.tap(Fixtures.card("mc-pin"), after: 5, pin: .notEntered))
        let shown = clock.now()
        let result = try await Fixtures.read(reader)
        #expect(result.outcome == .timeout)
        #expect(clock.now().timeIntervalSince(shown) == 65)
        #expect(result.events.last == .pinEntryRequested)
    }

    @Test func aPinCardWithoutPinThenThePinStepWhenTheHostAsks() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = try await Fixtures.preparedReader(clock: clock)
        await reader.present(.tap(Fixtures.card("mc-pin"), pin: .deferred, pinOnRequest: .correct(after: 4)))
        let card = try Fixtures.open(try await Fixtures.read(reader))
        #expect(card.pin == nil)

        let step = try await reader.enterPin(region: "EU", terminalId: "EU-T0101", readerKey: Fixtures.key)
        let sealed = try #require(step.sealedPayload)
        let pin = try PayloadSealer.open(sealed, as: PinPayload.self, key: Fixtures.key, region: "EU", terminalId: "EU-T0101")
        #expect(pin.pin == "1234")
        #expect(pin.readId != card.readId)
        #expect(pin.readAt == Fixtures.milliseconds(clock.now()))
        #expect(step.events == [.pinEntryRequested, .pinEntered, .processing])
    }

    @Test func thePinStepCanTimeOut() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa"), pinOnRequest: .notEntered))
        _ = try await Fixtures.read(reader)
        let step = try await reader.enterPin(region: "EU", terminalId: "EU-T0101", readerKey: Fixtures.key)
        #expect(step.outcome == .timeout)
    }

    @Test func thePinStepNeedsACardRead() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await #expect(throws: ReaderError.noCardRead) {
            try await reader.enterPin(region: "EU", terminalId: "EU-T0101", readerKey: Fixtures.key)
        }
    }

    @Test func nfcDisabledStopsARead() async throws {
        let heard = Recorder<ReaderNotice>()
        let reader = Fixtures.reader(clock: ManualReaderClock(), onReaderNotice: { heard.append($0) })
        try await reader.prepare(token: "token-1")
        await reader.inject(.nfcDisabled, at: .read)
        await reader.present(.tap(Fixtures.card("visa")))
        await #expect(throws: ReaderError.notice(.nfcDisabled)) { try await Fixtures.read(reader) }
        #expect(heard.all == [.nfcDisabled])
        #expect(await reader.state == .ready)
        // The queued card is still there for the next read.
        #expect(try await Fixtures.read(reader).sealedPayload != nil)
    }

    @Test func aConnectivityNoticeDuringAReadIsOnlyInformative() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.inject(.connectivityIssue, at: .read)
        await reader.present(.tap(Fixtures.card("visa")))
        let result = try await Fixtures.read(reader)
        #expect(result.events.first == .notice(.connectivityIssue))
        #expect(result.sealedPayload != nil)
    }

    @Test func aReadNeedsAPreparedReaderAValidKeyAndAmount() async throws {
        let unprepared = Fixtures.reader(clock: ManualReaderClock())
        await #expect(throws: ReaderError.notPrepared) { try await Fixtures.read(unprepared) }
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await #expect(throws: ReaderError.invalidReaderKey) {
            try await reader.read(amount: 100, currency: "EUR", region: "EU", terminalId: "T", readerKey: [1, 2, 3])
        }
        await #expect(throws: ReaderError.invalidRequest) {
            try await reader.read(amount: 0, currency: "EUR", region: "EU", terminalId: "T", readerKey: Fixtures.key)
        }
        await #expect(throws: ReaderError.invalidRequest) {
            try await reader.read(amount: 100, currency: "euro", region: "EU", terminalId: "T", readerKey: Fixtures.key)
        }
    }

    @Test func aPayloadOpensOnlyForItsTerminalAndRegion() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa")))
        let sealed = try #require(try await Fixtures.read(reader).sealedPayload)
        #expect(throws: PayloadError.authenticationFailed) {
            try PayloadSealer.open(sealed, as: CardPayload.self, key: Fixtures.key, region: "EU", terminalId: "EU-T0102")
        }
        #expect(throws: PayloadError.authenticationFailed) {
            try PayloadSealer.open(sealed, as: CardPayload.self, key: Fixtures.otherKey, region: "EU", terminalId: "EU-T0101")
        }
    }

    @Test func theSameSeedGivesTheSameSealedRead() async throws {
        func sealedRead() async throws -> String? {
            let reader = try await Fixtures.preparedReader(clock: ManualReaderClock(Fixtures.start))
            await reader.present(.tap(Fixtures.card("visa"), after: 5))
            return try await Fixtures.read(reader).sealedPayload
        }
        let first = try await sealedRead()
        #expect(first != nil)
        #expect(try await sealedRead() == first)
    }

    @Test func theCardReaderTest() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa")))
        let events = Recorder<ReaderEvent>()
        #expect(try await reader.testRead { events.append($0) })
        #expect(events.all == [.displayingCardReader, .processing, .completed(true)])

        await reader.present(.noTap())
        #expect(try await reader.testRead() == false)
        await reader.present(.cancel(after: 3))
        #expect(try await reader.testRead() == false)
        #expect(await reader.state == .ready)
    }
}
