import CardPayload
import Foundation
import SandboxWire
import SimulatedReader

/// The state of the SDK in one launch of the app: the simulated reader, the token (in memory
/// only), the point of sale MONEI gave for it, the reader preparation running in the background,
/// and whether a payment runs.
@MainActor
final class TapToPayApp {
    /// What `POST /v1/pos/prepare` gave for the token.
    struct Prepared {
        let token: String
        let pointOfSale: MoneiBodies.PointOfSale
        let readerKey: [UInt8]
        /// Host time minus device time, in seconds: a card read's `readAt` is on the host's clock.
        let offset: TimeInterval
    }

    let configuration: TapToPaySandbox
    let reader: Reader
    private let client: MoneiClient?
    private var prepared: Prepared?
    /// The reader's own preparation, started by `prepare` and by a return to the foreground.
    private var preparation: Task<Result<Void, TapToPayError>, Never>?
    private var paying = false
    private var accountLinked: Bool
    private var termsResponses: [TermsResponse]

    init(_ configuration: TapToPaySandbox) {
        self.configuration = configuration
        // The terms are the SDK's to show, on the first payment (never in prepare): the reader is
        // made linked, and the SDK keeps the account's own state.
        reader = Reader(
            device: configuration.device, requirements: .monei, clock: configuration.clock,
            location: configuration.location ?? .authorized(country: "ES", fixAfter: 0), script: configuration.readerScript,
            accountLinked: true)
        client = configuration.resolvedEndpoint().map { MoneiClient(baseURL: $0, timeout: configuration.requestTimeout) }
        accountLinked = configuration.accountLinked
        termsResponses = configuration.termsResponses
    }

    // MARK: - prepare(token:)

    func prepare(token: String) async throws(TapToPayError) {
        guard reader.isTapToPaySupported else { throw .notSupported }
        guard !paying else { throw .busy }
        guard !token.isEmpty else { throw .invalidToken }
        try await locate()
        guard let client else { throw .paymentFailed(code: .readerNotReady) }
        let answer: MoneiClient.Answer<MoneiBodies.PointOfSale> = await client.send("/v1/pos/prepare", token: token)
        let pointOfSale: MoneiBodies.PointOfSale
        switch answer {
        case .value(let value): pointOfSale = value
        case .refused(let status, let code): throw Self.refusal(status: status, code: code, orderId: nil)
        case .notSent, .noAnswer: throw .paymentFailed(code: .readerNotReady)
        }
        guard let keys = ReaderSealing(pointOfSale.reader, now: configuration.clock.now()) else { throw .paymentFailed(code: .readerNotReady) }
        prepared = Prepared(token: token, pointOfSale: pointOfSale, readerKey: keys.key, offset: keys.offset)
        // The reader's preparation goes on in the background; the first payment waits for it.
        await startPreparation()
    }

    /// Asks for permission if the user did not answer (no time limit), then, the first time, waits
    /// up to 15 s for a fix.
    private func locate() async throws(TapToPayError) {
        guard let location = reader.location else { return }
        if await location.lastFix != nil {
            guard await location.isLocationAuthorized else { throw .locationDenied }
            return
        }
        do throws(ReaderError) {
            _ = try await location.requestLocation()
        } catch {
            throw Self.readerError(error)
        }
    }

    /// Starts the reader's own preparation (Apple's part) after any that runs, unless a payment runs.
    private func startPreparation() async {
        if let running = preparation { _ = await running.value }
        guard let prepared, !paying else { return }
        let reader = reader
        let token = "monei-reader:\(prepared.pointOfSale.reader.keyId)"
        preparation = Task { () -> Result<Void, TapToPayError> in
            do throws(ReaderError) {
                try await reader.prepare(token: token)
                return .success(())
            } catch {
                return .failure(Self.readerError(error))
            }
        }
    }

    /// The app is back in the foreground: the reader is prepared again with the last token.
    func enterForeground() async {
        await reader.appWillEnterForeground()
        await startPreparation()
    }

    // MARK: - acceptPayment(amount:orderId:callbackUrl:)

    func acceptPayment(amount: Int, orderId: String, callbackUrl: URL?) async throws(TapToPayError) -> PaymentResult {
        guard reader.isTapToPaySupported else { throw .notSupported }
        guard amount > 0, !orderId.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .invalidArgument }
        guard !paying else { throw .busy }
        paying = true
        defer { paying = false }
        guard let prepared, let client else { throw .notPrepared }

        try await readyReader()
        try showTermsIfNeeded()

        // A customer a test queued on the sandbox for this point of sale goes first; then the app's own choice.
        if let script = await client.scriptedCustomer(pointOfSaleId: prepared.pointOfSale.pointOfSaleId) ?? configuration.cardScripts?(amount) {
            await reader.present(script)
        }
        let read: ReadResult
        do throws(ReaderError) {
            read = try await reader.read(
                amount: amount, currency: "EUR", region: TapToPaySandbox.region, terminalId: prepared.pointOfSale.pointOfSaleId,
                readerKey: prepared.readerKey, serverTimeOffset: prepared.offset)
        } catch {
            throw Self.readerError(error)
        }
        guard let card = read.sealedPayload else {
            // Cancelled, no tap in time, or the app left: no card was read, nothing was sent.
            throw .cancelled
        }

        let request = MoneiBodies.PaymentRequest(amount: amount, orderId: orderId, callbackUrl: callbackUrl?.absoluteString, card: card)
        switch await client.send("/v1/pos/payments", token: prepared.token, body: request, as: MoneiPayment.self) {
        case .value(let payment):
            return try Self.result(payment, orderId: orderId)
        case .refused(let status, let code):
            throw Self.refusal(status: status, code: code, orderId: orderId)
        case .notSent:
            throw .paymentFailed(code: .unknown)
        case .noAnswer:
            throw .outcomeUnknown(orderId: orderId)
        }
    }

    /// Waits for the background preparation; prepares again when it failed or the reader lost its
    /// connection (the app went to the background), which on the first payment after launch also
    /// waits for the location fix.
    private func readyReader() async throws(TapToPayError) {
        if let running = preparation, case .failure(let error) = await running.value, error == .notSupported {
            throw error
        }
        guard await reader.needsPrepare else { return }
        try await locate()
        do throws(ReaderError) {
            try await reader.prepare(token: "monei-reader:\(prepared?.pointOfSale.reader.keyId ?? "")")
        } catch {
            throw Self.readerError(error)
        }
    }

    /// Apple's terms, on the first payment of an account that has not accepted them on this phone.
    private func showTermsIfNeeded() throws(TapToPayError) {
        guard !accountLinked else { return }
        let response = termsResponses.isEmpty ? TermsResponse.accept : termsResponses.removeFirst()
        guard response == .accept else { throw .termsDeclined }
        accountLinked = true
    }

    // MARK: - presentEducation(from:)

    func presentEducation() async throws(TapToPayError) {
        guard reader.isTapToPaySupported else { throw .notSupported }
        switch await reader.presentEducation() {
        case .success: return
        case .fail(.osUpdateRequired, _): throw .notSupported
        case .fail: throw .paymentFailed(code: .unknown)
        }
    }

    // MARK: - What MONEI and the reader say, as TapToPayError

    /// The PaymentResult of MONEI's Payment object; a status that is neither success nor failure
    /// leaves the outcome unknown.
    static func result(_ payment: MoneiPayment, orderId: String) throws(TapToPayError) -> PaymentResult {
        let status: PaymentResult.Status
        switch payment.status {
        case .SUCCEEDED, .AUTHORIZED: status = .approved
        case .FAILED: status = .declined
        default: throw .outcomeUnknown(orderId: orderId)
        }
        let card = payment.paymentMethod?.card
        let brand = card?.brand.map { $0.lowercased() }.map { PaymentResult.knownBrands.contains($0) ? $0 : "unknown" }
        return PaymentResult(paymentId: payment.id, status: status, cardBrand: brand, last4: card?.last4, orderId: payment.orderId ?? orderId)
    }

    /// A refusal of the MONEI host (docs/monei.md, "Errors").
    static func refusal(status: Int, code: String?, orderId: String?) -> TapToPayError {
        switch (status, code.map(ErrorCode.init(rawValue:))) {
        case (_, .sessionExpired): return .tokenExpired
        case (401, _): return .invalidToken
        case (426, _): return .sdkUpgradeRequired
        case (_, .terminalBusy): return .busy
        case (_, .outcomeUnknown): return orderId.map { .outcomeUnknown(orderId: $0) } ?? .paymentFailed(code: .unknown)
        case (_, .invalidRequest), (_, .invalidJson): return .invalidArgument
        case (_, .cardPayloadInvalid), (_, .cardPayloadReplayed): return .paymentFailed(code: .readerNotReady)
        case (_, .invalidPan), (_, .invalidCardCountry), (_, .brandMismatch), (_, .unknownBrand), (_, .unknownCvm), (_, .invalidCardData):
            return .paymentFailed(code: .cardDeclined)
        case (500..., _): return orderId.map { .outcomeUnknown(orderId: $0) } ?? .paymentFailed(code: .readerNotReady)
        default: return .paymentFailed(code: .unknown)
        }
    }

    /// What the simulated reader (Apple's side) says.
    nonisolated static func readerError(_ error: ReaderError) -> TapToPayError {
        switch error {
        case _ where error.unsupportedReason != nil: .notSupported
        case .busy: .busy
        case .locationDenied: .locationDenied
        case .locationTimeout: .paymentFailed(code: .locationTimeout)
        case .accountLinkingCancelled: .termsDeclined
        case .tokenCancelled: .invalidToken
        case .appInBackground: .cancelled
        case .notice(.osUpdateRequired): .notSupported
        case .unreadableCard: .paymentFailed(code: .cardDeclined)
        case .noCardRead, .invalidCatalogue: .paymentFailed(code: .unknown)
        default: .paymentFailed(code: .readerNotReady)
        }
    }
}
