import Foundation
import SimulatedReader
import Testing

@Suite("Location")
struct LocationTests {
    @Test func noFixTimesOutAfter15SecondsOnTheClockWithoutWaiting() async {
        let clock = ManualReaderClock(Fixtures.start)
        let location = DeviceLocation(clock: clock, script: LocationScript(authorization: .authorized, fix: .never))
        // The manual clock jumps: the 15 s pass on it, not on the wall (no timing is asserted here,
        // machines are shared; a real sleep would simply make this test take 15 s).
        await #expect(throws: ReaderError.locationTimeout) { try await location.requestLocation() }
        #expect(clock.now().timeIntervalSince(Fixtures.start) == 15)
        #expect(await location.lastFix == nil)
    }

    @Test func aFixAfter15SecondsIsTooLate() async {
        let clock = ManualReaderClock(Fixtures.start)
        let location = DeviceLocation(clock: clock, script: .authorized(country: "BE", fixAfter: 15))
        await #expect(throws: ReaderError.locationTimeout) { try await location.requestLocation() }
        #expect(clock.now().timeIntervalSince(Fixtures.start) == 15)
    }

    @Test func aFixInTimeGivesTheScriptedCountry() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let location = DeviceLocation(clock: clock, script: .authorized(country: "PL", fixAfter: 3))
        let fix = try await location.requestLocation()
        #expect(fix == LocationFix(countryCode: "PL", at: Fixtures.start.addingTimeInterval(3)))
        #expect(await location.lastFix == fix)
    }

    @Test func theUserIsAskedOnceAndTheAnswerSticks() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let location = DeviceLocation(
            clock: clock, script: LocationScript(authorization: .notDetermined, answer: .denied, answerAfter: 30))
        #expect(!(await location.isLocationAuthorized))
        #expect(!(await location.isLocationDenied))
        await #expect(throws: ReaderError.locationDenied) { try await location.requestLocation() }
        // No time limit on the answer (MONEI): the 30 s the user took are not a timeout.
        #expect(clock.now().timeIntervalSince(Fixtures.start) == 30)
        #expect(await location.isLocationDenied)
        await location.update(LocationScript(answer: .authorized))
        #expect(await location.requestAuthorization() == .denied)
    }

    @Test func anAppWithoutUsageDescriptionIsDeniedAtOnce() async {
        let clock = ManualReaderClock(Fixtures.start)
        let location = DeviceLocation(clock: clock, script: LocationScript(hasUsageDescription: false))
        await #expect(throws: ReaderError.locationDenied) { try await location.requestLocation() }
        #expect(clock.now() == Fixtures.start)
        #expect(await location.authorization == .notDetermined)
    }

    @Test func theFirstPrepareWaitsForAFixAndFailsWithoutOne() async throws {
        let clock = ManualReaderClock(Fixtures.start)
        let listener = RecordingListener()
        let reader = Fixtures.reader(clock: clock, location: LocationScript(authorization: .authorized, fix: .never))
        await reader.addListener(listener)
        await #expect(throws: ReaderError.locationTimeout) { try await reader.prepare(token: "token-1") }
        #expect(listener.events == [.percentage(0), .error(.locationTimeout)])
        #expect(clock.now().timeIntervalSince(Fixtures.start) == 15)

        await reader.location?.update(.authorized(country: "BE", fixAfter: 2))
        try await reader.prepare(token: "token-1")
        #expect(await reader.location?.lastFix?.countryCode == "BE")
    }

    @Test func aDeniedUserCannotPrepare() async {
        let reader = Fixtures.reader(
            clock: ManualReaderClock(), location: LocationScript(authorization: .notDetermined, answer: .denied))
        await #expect(throws: ReaderError.locationDenied) { try await reader.prepare(token: "token-1") }
    }
}
