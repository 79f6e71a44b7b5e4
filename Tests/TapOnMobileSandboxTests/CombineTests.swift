#if canImport(Combine)
import Combine
#endif
import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// A subscriber that asks for one event, and for more only when the test says so.
final class OneAtATime<Input>: Subscriber, @unchecked Sendable {
    typealias Failure = Never
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var inputs: [Input] = []
    private var done = false

    var received: [Input] { lock.withLock { inputs } }
    var finished: Bool { lock.withLock { done } }

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(.max(1))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { inputs.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.withLock { done = true }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }
}

/// The SDK's publishers (TapOnMobile+Combine.swift; on Linux over the Combine stand-in).
@Suite("SDK publishers")
struct CombineTests {
    @Test("an event publisher keeps what its subscriber did not ask for yet: one at a time, no event lost, the end last")
    func eventsWaitForDemand() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox, cardScripts: { _ in .tap(card("visa")) })
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let sdk = phone.sdk
            let payment: AnyPublisher<Result<TransactionProcessEvent, TapOnMobileError>, Never> =
                sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil)
            let subscriber = OneAtATime<Result<TransactionProcessEvent, TapOnMobileError>>()
            payment.receive(subscriber: subscriber)
            #expect(await eventually(90) { subscriber.received.count == 1 })
            // The host has answered the sale, so every event has been sent; only the first was asked for.
            #expect(await eventually(90) { if case .success = await sdk.getLastTransaction() { true } else { false } })
            #expect(subscriber.received == [.success(.displayingCardReader)] && !subscriber.finished)
            subscriber.request(.unlimited)
            #expect(await eventually(90) { subscriber.finished })
            let detail = try value(await sdk.getLastTransaction(), "last")
            #expect(subscriber.received == [
                .success(.displayingCardReader), .success(.processing), .success(.finishProcessing), .success(.completed(detail)),
            ])
        }
    }

    @Test("a seed call kept in a `let` is the seed's publisher where Combine exists, and `for await` still takes the stream")
    func letTakesThePublisher() async throws {
        let folder = TemporaryDirectory()
        let sdk = TapOnMobile(configuration: SandboxConfiguration(endpointsFile: nil, deviceDirectory: folder.url))
        // Ambiguous before the stream versions were disfavoured: this is how the seed's examples start.
        let refund = sdk.doRefund(currency: "EUR", requestedAmount: 100, transactionId: "t-1", reference: nil)
        let language = sdk.updateLanguage(language: .english)
        #expect(typeName(of: refund).hasPrefix("AnyPublisher<"))
        #expect(typeName(of: language).hasPrefix("AnyPublisher<"))
        var events: [Result<CardReaderTestProcessEvent, TapOnMobileError>] = []
        for await event in sdk.doCardReaderTest(currency: "EUR") { events.append(event) }
        #expect(events.count == 1, "an uninitialised SDK ends the stream with one failure: \(events)")
    }
}

/// The static type of `value`, as the compiler chose it.
private func typeName<T>(of value: T) -> String { String(describing: T.self) }
