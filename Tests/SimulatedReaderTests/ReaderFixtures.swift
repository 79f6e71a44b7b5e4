import CardPayload
import Foundation
import SandboxCrypto
import SimulatedReader
import Synchronization
import SandboxTestSupport

/// Shared data for the reader tests: the shipped card file, a fixed key, a fixed start.
enum Fixtures {
    /// 2026-09-21T14:13:20Z, a fixed instant before the shipped valid cards expire.
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static let key: [UInt8] = Array(0..<32)
    static let otherKey: [UInt8] = Array(32..<64)

    static let catalogue: CardCatalogue = {
        do {
            return try CardCatalogue.load(from: Paths.sandboxData.appendingPathComponent("cards.json"))
        } catch {
            fatalError("cards.json: \(error)")
        }
    }()

    static func card(_ name: String) -> TestCard {
        guard let card = catalogue.card(named: name) else { fatalError("no card \(name)") }
        return card
    }

    /// A reader on a manual clock with a seeded random source and friendly defaults.
    static func reader(
        clock: ManualReaderClock,
        location: LocationScript? = .authorized(country: "BE", fixAfter: 0),
        script: ReaderScript = ReaderScript(),
        device: Device = .standard,
        accountLinked: Bool = true,
        tokenProvider: @escaping Reader.TokenProvider = { _ in .provide("token-1", requiresRelink: false) },
        accountLinking: @escaping Reader.AccountLinkingHandler = { _ in .confirm },
        onReaderNotice: @escaping Reader.NoticeHandler = { _ in }
    ) -> Reader {
        Reader(
            device: device, clock: clock, random: SeededRandomSource(seed: 7), location: location, script: script,
            accountLinked: accountLinked, tokenProvider: tokenProvider, accountLinking: accountLinking,
            onReaderNotice: onReaderNotice)
    }

    /// A prepared reader, ready to read.
    static func preparedReader(clock: ManualReaderClock, script: ReaderScript = ReaderScript()) async throws -> Reader {
        let reader = reader(clock: clock, script: script)
        try await reader.prepare(token: "token-1")
        return reader
    }

    /// Reads with the EU test terminal and the fixed key.
    static func read(
        _ reader: Reader, offset: TimeInterval = 0, onEvent: Reader.EventHandler? = nil
    ) async throws(ReaderError) -> ReadResult {
        try await reader.read(
            amount: 1250, currency: "EUR", region: "EU", terminalId: "EU-T0101", readerKey: key,
            serverTimeOffset: offset, onEvent: onEvent)
    }

    /// Opens a card payload as the EU host would.
    static func open(_ result: ReadResult) throws -> CardPayload {
        guard let sealed = result.sealedPayload else { throw PayloadError.malformed }
        return try PayloadSealer.open(sealed, as: CardPayload.self, key: key, region: "EU", terminalId: "EU-T0101")
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// A listener that records everything it hears.
final class RecordingListener: PrepareListener {
    enum Heard: Equatable {
        case percentage(Int)
        case completed
        case error(ReaderError)
    }

    private let heard = Mutex<[Heard]>([])

    var events: [Heard] { heard.withLock { $0 } }
    var percentages: [Int] {
        events.compactMap { if case .percentage(let value) = $0 { value } else { nil } }
    }

    func onPercentageUpdated(percentage: Int) { heard.withLock { $0.append(.percentage(percentage)) } }
    func onCompleted() { heard.withLock { $0.append(.completed) } }
    func onError(error: ReaderError) { heard.withLock { $0.append(.error(error)) } }
}

/// A thread-safe list that closures handed to the reader append to.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    var all: [Element] { items.withLock { $0 } }

    func append(_ item: Element) { items.withLock { $0.append(item) } }
}

/// A late-bound reference, for closures given to a reader that must call the same reader.
final class ReaderBox: Sendable {
    private let reader = Mutex<Reader?>(nil)

    var value: Reader? { reader.withLock { $0 } }

    func set(_ value: Reader) { reader.withLock { $0 = value } }
}
