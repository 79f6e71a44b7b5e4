import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// Records the screens the SDK shows on a container, in order.
final class ScreenRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var screens: [SDKScreen] = []

    func add(_ screen: SDKScreen) { lock.withLock { screens.append(screen) } }
    var all: [SDKScreen] { lock.withLock { screens } }
}

/// Holds whoever waits until it is opened (a customer still looking at a screen).
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}

/// What happened, in order, across the SDK's stream and its screens.
final class Timeline: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

/// `container:` and `paymentSolutionReceiptHandling:` of a sale and a refund (seed "Container
/// management"): without a container the app draws everything; with one the SDK shows its
/// progress screen and, unless told not to, its result screen, which holds `.completed` until closed.
@Suite("SDK screens on a container")
struct ContainerTests {
    /// A phone whose card screens all see a Visa tap, registered, logged in and prepared.
    func preparedPhone(_ sandbox: LiveSandbox, screens: @escaping @Sendable (SDKScreen) async -> Void) async throws -> Phone {
        let phone = makePhone(sandbox, cardScripts: { _ in .tap(card("visa")) }, onSDKScreen: screens)
        try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
        return phone
    }

    @Test("no container: no SDK screen, and paymentSolutionReceiptHandling changes nothing")
    func withoutAContainerTheAppDrawsEverything() async throws {
        try await withSandbox { sandbox in
            let screens = ScreenRecorder()
            let device = try await preparedPhone(sandbox) { screens.add($0) }
            let sdk = device.sdk
            let (events, detail) = try await transaction(
                sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil, paymentSolutionReceiptHandling: true), "sale")
            #expect(events == [.displayingCardReader, .processing, .finishProcessing, .completed(detail)])
            #expect(detail.transactionStatus == .CLEARED)
            #expect(screens.all.isEmpty, "\(screens.all)")
            withExtendedLifetime(device) {}
        }
    }

    @Test("a container with receipt handling: progress, then the result screen, and .completed only once it is closed")
    func theResultScreenHoldsTheCompletion() async throws {
        try await withSandbox { sandbox in
            let timeline = Timeline()
            let gate = Gate()
            let device = try await preparedPhone(sandbox) { screen in
                switch screen {
                case .transactionProgress: timeline.add("progress screen")
                case .dccOffer: timeline.add("dcc screen")
                case .result(let detail):
                    timeline.add("result screen \(detail.transactionStatus)")
                    await gate.wait()  // the customer looks at the result until the test closes it
                    timeline.add("result closed")
                }
            }
            let sdk = device.sdk
            let container = await MainActor.run { UIViewController() }
            let sale = Task {
                for await result in sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil, container: container) {
                    switch result {
                    case .success(.completed(let detail)): timeline.add("completed \(detail.transactionStatus)")
                    case .success(let event): timeline.add("\(event)")
                    case .failure(let error): timeline.add("failure \(error)")
                    }
                }
            }
            #expect(await eventually(90) { timeline.all.contains("result screen CLEARED") }, "\(timeline.all)")
            #expect(!timeline.all.contains { $0.hasPrefix("completed") }, "completed while the result screen is up: \(timeline.all)")
            await gate.open()
            await sale.value
            let entries = timeline.all
            // The stream's own order; its consumer (this task) and the screens' run apart, so the
            // progress screen may be noted before the task reads displayingCardReader on a busy machine.
            let streamed = entries.filter { !$0.contains("screen") && $0 != "result closed" }
            #expect(streamed.first == "displayingCardReader" && entries.last == "completed CLEARED", "\(entries)")
            #expect(entries.filter { $0 != "processing" && $0 != "finishProcessing" && $0 != "displayingCardReader" }
                == ["progress screen", "result screen CLEARED", "result closed", "completed CLEARED"], "\(entries)")
            withExtendedLifetime(device) {}
        }
    }

    @Test("a container without receipt handling: the progress screen only, for a sale and for a refund")
    func noResultScreenWhenTheAppHandlesTheReceipt() async throws {
        try await withSandbox { sandbox in
            let screens = ScreenRecorder()
            let device = try await preparedPhone(sandbox) { screens.add($0) }
            let sdk = device.sdk
            let container = await MainActor.run { UIViewController() }
            let (_, saleA) = try await transaction(
                sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil, container: container,
                              paymentSolutionReceiptHandling: false), "sale A")
            _ = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "sale B")
            let (events, refund) = try await transaction(
                sdk.doRefund(currency: "EUR", requestedAmount: 1250, transactionId: saleA.transactionId, reference: nil,
                             container: container, paymentSolutionReceiptHandling: false), "refund A")
            #expect(events == [.displayingCardReader, .processing, .finishProcessing, .completed(refund)])
            #expect(refund.transactionType == .REFUND && refund.transactionStatus == .CLEARED, "\(refund)")
            #expect(screens.all == [.transactionProgress, .transactionProgress], "\(screens.all)")
            withExtendedLifetime(device) {}
        }
    }
}
