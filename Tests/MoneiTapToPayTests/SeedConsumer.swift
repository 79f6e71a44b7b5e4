import Foundation
import MoneiTapToPay

/// An app written from the seed's example (seeds/002, "Accept payments"): its two functions as the
/// seed gives them, inside a main-actor type as the seed asks ("Call it from the main actor").
/// The seed leaves `myServer` and the `show…` functions to the app, and its `catch` blocks point to
/// "Handle errors and unclear outcomes": here they record what the user would be shown.
@MainActor
final class SeedConsumer {
    /// What the app showed, in order.
    enum Shown: Equatable {
        case approved(PaymentResult)
        case declined(PaymentResult)
        case pending(String)
        case error(TapToPayError)
    }

    struct Server {
        let fetch: @Sendable () async throws -> String
        func fetchPosToken() async throws -> String { try await fetch() }
    }

    let myServer: Server
    private(set) var shown: [Shown] = []

    init(fetchPosToken: @escaping @Sendable () async throws -> String) {
        myServer = Server(fetch: fetchPosToken)
    }

    func showApproved(_ result: PaymentResult) { shown.append(.approved(result)) }
    func showDeclined(_ result: PaymentResult) { shown.append(.declined(result)) }
    func showPending(_ orderId: String) { shown.append(.pending(orderId)) }
    func handle(_ error: any Error) {
        if let error = error as? TapToPayError { shown.append(.error(error)) }
    }

    /// What the app showed since `mark`.
    func shown(since mark: Int) -> [Shown] { Array(shown.dropFirst(mark)) }

    // The seed's example, unchanged but for the bodies of its catch-all blocks.

    // On launch, and again after each token renewal.
    func startTapToPay() async {
      guard TapToPay.isSupported else { return } // Hide Tap to Pay on iPhone in your UI.
      do {
        let token = try await myServer.fetchPosToken() // The "token" field only.
        try await TapToPay.prepare(token: token)
      } catch {
        // See "Handle errors and unclear outcomes".
        handle(error)
      }
    }

    // When the customer pays.
    func pay(amountInCents: Int, orderId: String) async {
      do {
        let result = try await TapToPay.acceptPayment(
          amount: amountInCents,
          orderId: orderId,
          callbackUrl: URL(string: "https://example.com/monei/webhook"))
        switch result.status {
        case .approved: showApproved(result)
        case .declined: showDeclined(result)
        @unknown default: showPending(orderId)
        }
      } catch TapToPayError.outcomeUnknown(let orderId) {
        // Do not retry. Check this orderId in MONEI.
        showPending(orderId)
      } catch {
        // See "Handle errors and unclear outcomes".
        handle(error)
      }
    }
}
