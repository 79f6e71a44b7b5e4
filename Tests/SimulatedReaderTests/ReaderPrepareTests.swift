import CardPayload
import Foundation
import SimulatedReader
import Testing

@Suite("Reader: prepare, clear, lifecycle")
struct ReaderPrepareTests {
    @Test func progressRisesFrom0To100ThenCompletes() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let reader = Fixtures.reader(clock: clock)
        let listener = RecordingListener()
        await reader.addListener(listener)
        try await reader.prepare(token: "token-1")

        let percentages = listener.percentages
        #expect(percentages.first == 0)
        #expect(percentages.last == 100)
        #expect(zip(percentages, percentages.dropFirst()).allSatisfy { $0 < $1 })
        #expect(listener.events.last == .completed)
        #expect(await reader.percentage == 100)
        #expect(await reader.state == .ready)
        // The security checks took the scripted 4 s on the clock, and nothing really waited.
        #expect(clock.now().timeIntervalSince(Fixtures.start) == 4)
    }

    @Test func aRemovedListenerHearsNothing() async throws {
        let reader = Fixtures.reader(clock: ManualReaderClock())
        let kept = RecordingListener()
        let removed = RecordingListener()
        await reader.addListener(kept)
        await reader.addListener(removed)
        await reader.removeListener(removed)
        try await reader.prepare(token: "token-1")
        #expect(removed.events.isEmpty)
        #expect(!kept.events.isEmpty)

        await reader.removeAllListeners()
        try await reader.prepare(token: "token-1")
        #expect(kept.events.filter { $0 == .completed }.count == 1)
    }

    @Test func aSecondPrepareWhileOneRunsIsBusy() async throws {
        let box = ReaderBox()
        let seen = Recorder<ReaderError>()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), accountLinked: false,
            accountLinking: { _ in
                // The first prepare is waiting for the merchant: anything else is busy.
                guard let reader = box.value else { return .cancel }
                do throws(ReaderError) { try await reader.prepare(token: "token-2") } catch { seen.append(error) }
                do throws(ReaderError) { try await reader.clear() } catch { seen.append(error) }
                do throws(ReaderError) { _ = try await Fixtures.read(reader) } catch { seen.append(error) }
                return .confirm
            })
        box.set(reader)
        try await reader.prepare(token: "token-1")
        #expect(seen.all == [.busy, .busy, .busy])
        #expect(await reader.state == .ready)
    }

    @Test func prepareOrClearDuringAReadIsBusy() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.present(.tap(Fixtures.card("visa"), after: 5))
        let seen = Recorder<ReaderError>()
        let result = try await Fixtures.read(reader) { event in
            guard event == .displayingCardReader else { return }
            do throws(ReaderError) { try await reader.prepare(token: "token-1") } catch { seen.append(error) }
            do throws(ReaderError) { try await reader.clear() } catch { seen.append(error) }
            do throws(ReaderError) { _ = try await Fixtures.read(reader) } catch { seen.append(error) }
            do throws(ReaderError) { _ = try await reader.testRead() } catch { seen.append(error) }
        }
        #expect(seen.all == [.busy, .busy, .busy, .busy])
        #expect(result.sealedPayload != nil)
    }

    @Test func goingToTheBackgroundNeedsANewPrepare() async throws {
        let reader = try await Fixtures.preparedReader(clock: ManualReaderClock())
        await reader.appDidEnterBackground()
        await #expect(throws: ReaderError.appInBackground) { try await Fixtures.read(reader) }
        await #expect(throws: ReaderError.appInBackground) { try await reader.prepare() }
        await reader.appWillEnterForeground()
        #expect(await reader.needsPrepare)
        // The last progress is kept, as the TapOnMobile seed says.
        #expect(await reader.percentage == 100)
        await #expect(throws: ReaderError.notPrepared) { try await Fixtures.read(reader) }

        try await reader.prepare()  // reuses the connection's token
        await reader.present(.tap(Fixtures.card("visa")))
        #expect(try await Fixtures.read(reader).sealedPayload != nil)
    }

    @Test func goingToTheBackgroundDuringAPrepareFailsIt() async throws {
        let box = ReaderBox()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), accountLinked: false,
            accountLinking: { _ in
                await box.value?.appDidEnterBackground()
                return .confirm
            })
        box.set(reader)
        let listener = RecordingListener()
        await reader.addListener(listener)
        await #expect(throws: ReaderError.appInBackground) { try await reader.prepare(token: "token-1") }
        #expect(listener.events.last == .error(.appInBackground))
        #expect(await reader.state == .unprepared)
    }

    @Test func accountLinkingRunsTheFirstTimeOnly() async throws {
        let reasons = Recorder<AccountLinkingReason>()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), accountLinked: false,
            accountLinking: { reason in
                reasons.append(reason)
                return .confirm
            })
        try await reader.prepare(token: "token-1")
        try await reader.prepare(token: "token-1")
        #expect(reasons.all == [.setup])
        #expect(await reader.isAccountLinked)
    }

    @Test func theAppCancellingAccountLinkingFailsThePrepare() async throws {
        let reader = Fixtures.reader(clock: ManualReaderClock(), accountLinked: false, accountLinking: { _ in .cancel })
        let listener = RecordingListener()
        await reader.addListener(listener)
        await #expect(throws: ReaderError.accountLinkingCancelled) { try await reader.prepare(token: "token-1") }
        #expect(listener.events.last == .error(.accountLinkingCancelled))
        #expect(!(await reader.isAccountLinked))
        #expect(await reader.state == .unprepared)
    }

    @Test func theMerchantDenyingAppleTermsAsksTheAppAgain() async throws {
        let reasons = Recorder<AccountLinkingReason>()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), script: ReaderScript(termsResponses: [.deny, .deny]), accountLinked: false,
            accountLinking: { reason in
                reasons.append(reason)
                // Retry once after a denial, then give up; confirm again on the next prepare.
                return reasons.all.count == 3 ? .cancel : .confirm
            })
        await #expect(throws: ReaderError.accountLinkingCancelled) { try await reader.prepare(token: "token-1") }
        #expect(reasons.all == [.setup, .deniedByUser, .deniedByUser])

        // Next time the merchant accepts (the queue is empty: accept).
        try await reader.prepare(token: "token-1")
        #expect(reasons.all == [.setup, .deniedByUser, .deniedByUser, .setup])
        #expect(await reader.isAccountLinked)
    }

    @Test func aRefusedTokenIsReplacedThroughTheProviderAndRelinkShowsTermsAgain() async throws {
        let reasons = Recorder<TokenRequestReason>()
        let linking = Recorder<AccountLinkingReason>()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), script: ReaderScript(tokenVerdicts: [.expired, .invalid("bad signature")]),
            tokenProvider: { reason in
                reasons.append(reason)
                return .provide("token-\(reasons.all.count + 1)", requiresRelink: reason != .rejected(.expired))
            },
            accountLinking: { reason in
                linking.append(reason)
                return .confirm
            })
        try await reader.prepare(token: "token-1")
        #expect(reasons.all == [.rejected(.expired), .rejected(.invalid("bad signature"))])
        // The accepted token asked for a relink: the merchant sees Apple's terms again.
        #expect(linking.all == [.setup])
    }

    @Test func aTokenProviderThatCancelsStopsThePrepare() async throws {
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), script: ReaderScript(tokenVerdicts: [.expired]), tokenProvider: { _ in .cancel })
        await #expect(throws: ReaderError.tokenCancelled) { try await reader.prepare(token: "token-1") }
        await #expect(throws: ReaderError.tokenCancelled) { try await reader.prepare(token: "") }
    }

    @Test func clearMakesTheNextPrepareAskForANewToken() async throws {
        let reasons = Recorder<TokenRequestReason>()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(),
            tokenProvider: { reason in
                reasons.append(reason)
                return .provide("fresh", requiresRelink: false)
            })
        try await reader.clear()  // nothing prepared: success at once
        try await reader.prepare(token: "token-1")
        try await reader.prepare()
        #expect(reasons.all.isEmpty)
        try await reader.clear()
        #expect(await reader.state == .unprepared)
        await #expect(throws: ReaderError.notPrepared) { try await Fixtures.read(reader) }
        try await reader.prepare()
        #expect(reasons.all == [.setup])
    }

    @Test(arguments: [ReaderNotice.merchantBlocked, .deviceBanned, .osUpdateRequired, .entitlementMissing])
    func aBlockingNoticeStopsThePrepare(_ notice: ReaderNotice) async throws {
        let heard = Recorder<ReaderNotice>()
        let reader = Fixtures.reader(clock: ManualReaderClock(), onReaderNotice: { heard.append($0) })
        await reader.inject(notice, at: .prepare)
        await #expect(throws: ReaderError.notice(notice)) { try await reader.prepare(token: "token-1") }
        #expect(heard.all == [notice])
        // A notice is raised once: the retry succeeds.
        try await reader.prepare(token: "token-1")
        #expect(await reader.receivedNotices == [notice])
    }

    @Test(arguments: [ReaderNotice.connectivityIssue, .nfcDisabled])
    func anInformativeNoticeIsSurfacedAndThePrepareGoesOn(_ notice: ReaderNotice) async throws {
        let heard = Recorder<ReaderNotice>()
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), script: ReaderScript(notices: [.prepare: [notice]]),
            onReaderNotice: { heard.append($0) })
        try await reader.prepare(token: "token-1")
        #expect(heard.all == [notice])
        #expect(await reader.state == .ready)
    }

    @Test func merchantEducationNeedsLinkedAccountAndCanFail() async throws {
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), script: ReaderScript(educationFailures: [.osUpdateRequired]), accountLinked: false)
        guard case .fail(.unknown, _) = await reader.presentEducation() else {
            Issue.record("education shown before the terms were accepted")
            return
        }
        try await reader.prepare(token: "token-1")
        guard case .fail(.osUpdateRequired, _) = await reader.presentEducation() else {
            Issue.record("scripted failure not reported")
            return
        }
        #expect(await reader.presentEducation() == .success)
        #expect(await reader.educationPresentations == 1)
    }
}
