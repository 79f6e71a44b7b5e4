import LockedValue
import CardPayload
import Foundation
import SandboxWire
import SimulatedReader
#if canImport(UIKit)
import UIKit
#endif

/// Card payments: sale, refund, reversal, DCC, card reader test.
///
/// A sale or refund is validated by the host first (amount, limits, country, session, tip,
/// reference, the refunded sale), then the card screen is shown and the reader's sealed payload
/// (or what happened instead) goes to the host in one request. A `PIN_REQUESTED` answer asks the customer for the PIN on the reader and
/// sends it sealed; a `DCC_REQUIRED` answer completes the stream, and the app finishes it with
/// ``doMakeTransactionFinishDCC(transactionId:dccOfferAccepted:)``, unless a container is given and
/// the customer's script makes the choice (``SDKScreen/dccOffer(_:)``).
///
/// What the customer does at the card screen is, in order: the turn a test queued on the sandbox
/// for the terminal (`POST /_sandbox/customer/{terminalId}`, `TestSandbox.queueCustomer`), the
/// app's ``SandboxConfiguration/cardScripts``, the reader's own queue.
extension TapOnMobile {
    typealias Events = AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>

    /// Takes a card payment (seed `doPayment`).
    ///
    /// ```swift
    /// for await result in TapOnMobile.shared.doPayment(currency: "EUR", requestedAmount: 1250, reference: "INV-1") {
    ///     switch result {
    ///     case .success(.completed(let detail)): print(detail.transactionStatus, detail.transactionId)
    ///     case .success(let event): print("update: \(event)")
    ///     case .failure(let error): print("Payment: Error: \(error)")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - currency: The terminal's currency, `EUR`.
    ///   - requestedAmount: The total in minor units, tip included (11.91 € is 1191).
    ///   - reference: The merchant's reference, or `nil`.
    ///   - tipAmount: The part of `requestedAmount` that is a tip.
    ///   - container: The view controller the SDK shows its own screens on (progress, result);
    ///     `nil`: the app draws its own. Here they go to ``SandboxConfiguration/onSDKScreen``.
    ///   - paymentSolutionReceiptHandling: With a container, whether the SDK shows its result
    ///     screen (``SDKScreen/result(_:)``) before `.completed`; without one it changes nothing.
    ///   - checkoutId: A checkout the merchant's backend registered; every field must match it.
    /// - Returns: Events, ending with `.completed(detail)` (whatever the final status: check
    ///   ``TransactionDetail/outcomeError``) or with one failure.
    @_disfavoredOverload
    public func doPayment(
        currency: String, requestedAmount: Int, reference: String?, tipAmount: Int? = nil, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true, checkoutId: String? = nil
    ) -> AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>> {
        return cardTransaction(
            .init(operation: .payment, amount: requestedAmount, currency: currency), service: .payment,
            path: "/terminal/v1/transactions/sale", reference: reference, tipAmount: tipAmount,
            screens: Screens(container: container, resultScreen: paymentSolutionReceiptHandling)
        ) { read, country in
            SaleRequest(
                currency: currency, requestedAmount: requestedAmount, tipAmount: tipAmount, reference: reference,
                checkoutId: checkoutId, countryCode: country, cardPayload: read.sealedPayload, readerOutcome: read.outcome?.rawValue)
        }
    }

    /// Refunds a cleared sale that can no longer be reversed, with the customer's card (seed `doRefund`).
    ///
    /// - Parameters:
    ///   - currency: The sale's currency.
    ///   - requestedAmount: At most the sale's amount.
    ///   - transactionId: The sale.
    ///   - reference: The merchant's reference, or `nil`.
    ///   - container: As for a payment: the view controller the SDK shows its screens on, or `nil`.
    ///   - paymentSolutionReceiptHandling: As for a payment: with a container, whether the SDK
    ///     shows its result screen.
    ///   - checkoutId: Accepted for the seed's signature; refunds have no checkout.
    /// - Returns: Events as ``doPayment(currency:requestedAmount:reference:tipAmount:container:paymentSolutionReceiptHandling:checkoutId:)``;
    ///   the completed detail is the refund (type `REFUND`).
    @_disfavoredOverload
    public func doRefund(
        currency: String, requestedAmount: Int, transactionId: String, reference: String?, container: UIViewController? = nil,
        paymentSolutionReceiptHandling: Bool = true, checkoutId: String? = nil
    ) -> AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>> {
        return cardTransaction(
            .init(operation: .refund, amount: requestedAmount, currency: currency), service: .refund,
            path: "/terminal/v1/transactions/refund", reference: reference, original: transactionId,
            screens: Screens(container: container, resultScreen: paymentSolutionReceiptHandling)
        ) { read, _ in
            RefundRequest(
                currency: currency, requestedAmount: requestedAmount, transactionId: transactionId, reference: reference,
                cardPayload: read.sealedPayload, readerOutcome: read.outcome?.rawValue)
        }
    }

    /// Which of its own screens the SDK shows during a sale or refund: none without a container.
    struct Screens: Sendable {
        var progress: Bool
        var result: Bool

        init(container: UIViewController?, resultScreen: Bool) {
            progress = container != nil
            result = container != nil && resultScreen
        }
    }

    /// The shared flow of a sale and a refund.
    ///
    /// - Parameters:
    ///   - reference, tipAmount, original: what the host checks before the card screen, besides
    ///     the amount and the country (`original` is a refund's sale).
    private func cardTransaction(
        _ request: SandboxConfiguration.CardRequest, service: TransactionServiceType, path: String, reference: String?,
        tipAmount: Int? = nil, original: String? = nil, screens: Screens,
        body: @escaping @Sendable (ReadResult, String?) -> any Encodable & Sendable
    ) -> Events {
        let show = configuration.onSDKScreen
        return stream { emit in
            let loggedIn: LoggedIn
            let readerSession: ReaderSession
            do throws(TapOnMobileError) {
                (loggedIn, readerSession) = try self.readyForCards()
            } catch {
                return emit(.failure(error))
            }
            let client = loggedIn.client
            if self.isLocationDenied() { return emit(.failure(.location(.denied))) }
            let country = await self.currentCountry()

            // The SDK validates every transaction before the card screen (seed: "Validate Transaction").
            let valid = await self.send(
                client, "POST", "/terminal/v1/transactions/validate",
                body: ValidateRequest(
                    transactionServiceType: service.rawValue, requestedAmount: request.amount, countryCode: country, reference: reference,
                    tipAmount: tipAmount, transactionId: original, currency: request.currency),
                bearer: loggedIn.token, as: NoContent.self)
            if case .failure(let error) = valid { return emit(.failure(error)) }

            let reader = loggedIn.registered.context.reader
            // A customer a test queued on the sandbox for this terminal goes first (a UI test cannot
            // reach the app's provider); then the app's own choice.
            let script = await client.scriptedCustomer(terminalId: loggedIn.terminalId) ?? self.configuration.cardScripts?(request)
            if let script { await reader.present(script) }
            let shown = LockedValueBox(false)
            let read: ReadResult
            do throws(ReaderError) {
                read = try await reader.read(
                    amount: request.amount, currency: request.currency, region: loggedIn.registered.context.region,
                    terminalId: loggedIn.terminalId, readerKey: readerSession.key, serverTimeOffset: readerSession.offset
                ) { event in
                    switch event {
                    case .displayingCardReader where !shown.withLockedValue({ let was = $0; $0 = true; return was }):
                        emit(.success(.displayingCardReader))
                    case .pinEntryRequested:
                        emit(.success(.enteringPin))
                    default:
                        break
                    }
                }
            } catch {
                return emit(.failure(.reader(error)))
            }
            if !shown.withLockedValue({ $0 }) { emit(.success(.displayingCardReader)) }

            emit(.success(.processing))
            if screens.progress { await show(.transactionProgress) }
            var result = await self.send(
                client, "POST", path, body: body(read, country), bearer: loggedIn.token, idempotent: true, as: TransactionDetail.self)
            if case .success(let detail) = result, detail.transactionStatus == .PIN_REQUESTED, read.sealedPayload != nil {
                result = await self.enterPin(for: detail, loggedIn: loggedIn, readerSession: readerSession) { emit(.success(.enteringPin)) }
            }
            // On a container the SDK shows the DCC offer itself (seed "Managed screens") when the
            // customer's script makes the choice, and finishes the sale with it.
            if case .success(let detail) = result, detail.transactionStatus == .DCC_REQUIRED, screens.progress,
                let accepted = script?.dccOfferAccepted
            {
                self.remember(detail)
                await show(.dccOffer(detail))
                result = await self.finishDCC(detail.transactionId, accepted: accepted, loggedIn: loggedIn, readerSession: readerSession) {
                    emit(.success(.enteringPin))
                }
            }
            switch result {
            case .failure(let error):
                emit(.failure(error))
            case .success(let detail):
                self.remember(detail)
                emit(.success(.finishProcessing))
                // The result screen is still up after `.finishProcessing` (seed); done once it is closed.
                if screens.result { await show(.result(detail)) }
                emit(.success(.completed(detail)))
            }
        }
    }

    /// Reverses the terminal's latest cleared sale (within 30 minutes), or cancels a sale that
    /// waits for the DCC choice.
    ///
    /// - Parameters:
    ///   - transactionId: The sale.
    ///   - isCancelledByUser: `true` when the customer cancelled (→ `USER_CANCELLED`), else `CANCELLED`.
    ///   - expectedAmount: Not in the seed: the sale's whole amount as the caller knows it; the host
    ///     refuses another with `amount_mismatch` (409) (PagBank's cancel names the amount it cancels).
    /// - Returns: `Success` whose ``Success/transactionStatus`` is the sale's new status.
    public func doReversal(transactionId: String, isCancelledByUser: Bool = false, expectedAmount: Int? = nil) async
        -> Result<Success, TapOnMobileError>
    {
        await with(loggedIn) { loggedIn in
            return await send(
                loggedIn.client, "POST", "/terminal/v1/transactions/\(TerminalClient.encode(transactionId))/reversal",
                body: PaymentBodies.Reversal(isCancelledByUser: isCancelledByUser, expectedAmount: expectedAmount), bearer: loggedIn.token,
                idempotent: true, as: TransactionDetail.self
            ).map { detail in
                remember(detail)
                return Success(transactionStatus: detail.transactionStatus)
            }
        }
    }

    /// Finishes a `DCC_REQUIRED` transaction with the customer's choice; an online-PIN card then
    /// asks for its PIN on the reader.
    ///
    /// - Parameters:
    ///   - transactionId: The transaction; `nil` means the last one that stopped at `DCC_REQUIRED`.
    ///   - dccOfferAccepted: `true` pays in the card's currency (`dccStatus` `ACCEPTED`), `false` in the terminal's.
    /// - Returns: The final detail.
    public func doMakeTransactionFinishDCC(transactionId: String?, dccOfferAccepted: Bool) async
        -> Result<TransactionDetail, TapOnMobileError>
    {
        await with(loggedIn) { loggedIn in
            guard let id = transactionId ?? runtime.withLockedValue({ $0.pendingDCC }) else {
                return .failure(
                    .transaction(TransactionError(.notFound, message: "No transaction waits for a DCC choice on this device.")))
            }
            let result = await finishDCC(id, accepted: dccOfferAccepted, loggedIn: loggedIn, readerSession: runtime.withLockedValue({ $0.readerSession }))
            if case .success(let detail) = result { remember(detail) }
            return result
        }
    }

    /// Sends the customer's DCC choice; an online-PIN card then asks for its PIN on the reader.
    private func finishDCC(
        _ id: String, accepted: Bool, loggedIn: LoggedIn, readerSession: ReaderSession?, onPinPad: (@Sendable () -> Void)? = nil
    ) async -> Result<TransactionDetail, TapOnMobileError> {
        var result = await send(
            loggedIn.client, "POST", "/terminal/v1/transactions/\(TerminalClient.encode(id))/dcc",
            body: PaymentBodies.DCC(dccOfferAccepted: accepted), bearer: loggedIn.token, idempotent: true, as: TransactionDetail.self)
        if case .success(let detail) = result, detail.transactionStatus == .PIN_REQUESTED {
            guard let readerSession else { return .failure(.cardReaderSession(.notPrepared)) }
            result = await enterPin(for: detail, loggedIn: loggedIn, readerSession: readerSession, onPinPad: onPinPad)
        }
        return result
    }


    /// Tests the contactless reader without a transaction.
    ///
    /// - Parameter currency: The terminal's currency (three letters).
    /// - Returns: `.displayingCardReader`, `.processing` (after a tap), `.completed(cardRead)`.
    @_disfavoredOverload
    public func doCardReaderTest(currency: String) -> AsyncStream<Result<CardReaderTestProcessEvent, TapOnMobileError>> {
        stream { emit in
            let loggedIn: LoggedIn
            do throws(TapOnMobileError) {
                loggedIn = try self.loggedIn()
            } catch {
                return emit(.failure(error))
            }
            guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                return emit(
                    .failure(.validation(ValidationError(.invalidRequest, message: "currency must be an ISO 4217 code such as EUR.",
                                                         field: "currency"))))
            }
            let reader = loggedIn.registered.context.reader
            if let script = await loggedIn.client.scriptedCustomer(terminalId: loggedIn.terminalId)
                ?? self.configuration.cardScripts?(.init(operation: .cardReaderTest, amount: 0, currency: currency))
            {
                await reader.present(script)
            }
            do throws(ReaderError) {
                _ = try await reader.testRead { event in
                    switch event {
                    case .displayingCardReader: emit(.success(.displayingCardReader))
                    case .processing: emit(.success(.processing))
                    case .completed(let passed): emit(.success(.completed(passed)))
                    default: break
                    }
                }
            } catch {
                emit(.failure(.reader(error)))
            }
        }
    }

    // MARK: - Helpers

    /// A logged-in device whose reader was prepared.
    private func readyForCards() throws(TapOnMobileError) -> (LoggedIn, ReaderSession) {
        let loggedIn = try loggedIn()
        guard let readerSession = runtime.withLockedValue({ $0.readerSession }) else { throw .cardReaderSession(.notPrepared) }
        return (loggedIn, readerSession)
    }

    /// The customer types the PIN on the reader; it goes to the host sealed.
    ///
    /// - Parameter onPinPad: Told when the reader shows its PIN pad.
    private func enterPin(
        for detail: TransactionDetail, loggedIn: LoggedIn, readerSession: ReaderSession,
        onPinPad: (@Sendable () -> Void)? = nil
    ) async -> Result<TransactionDetail, TapOnMobileError> {
        let read: ReadResult
        do throws(ReaderError) {
            read = try await loggedIn.registered.context.reader.enterPin(
                region: loggedIn.registered.context.region, terminalId: loggedIn.terminalId, readerKey: readerSession.key,
                serverTimeOffset: readerSession.offset
            ) { event in
                if event == .pinEntryRequested { onPinPad?() }
            }
        } catch {
            return .failure(.reader(error))
        }
        // No PIN in time, or the screen was closed: the transaction stays PIN_REQUESTED until the
        // host times it out (the seed: "this status stays … no transaction was done").
        guard let sealed = read.sealedPayload else { return .success(detail) }
        return await send(
            loggedIn.client, "POST", "/terminal/v1/transactions/\(TerminalClient.encode(detail.transactionId))/pin",
            body: PaymentBodies.Pin(pinPayload: sealed), bearer: loggedIn.token, idempotent: true, as: TransactionDetail.self)
    }

    /// Keeps what the device must remember of a transaction: the last cleared one, and one that
    /// waits for the DCC choice.
    func remember(_ detail: TransactionDetail) {
        runtime.withLockedValue {
            if detail.transactionStatus == .DCC_REQUIRED {
                $0.pendingDCC = detail.transactionId
            } else if $0.pendingDCC == detail.transactionId {
                $0.pendingDCC = nil
            }
        }
        let store = runtime.withLockedValue { $0.store }
        _ = try? store.update { state in
            if detail.transactionStatus == .CLEARED || state.lastTransaction?.transactionId == detail.transactionId {
                state.lastTransaction = detail
            }
        }
    }

    /// An `AsyncStream` fed by `body` in a task; ending the iteration early cancels the card screen.
    func stream<Event: Sendable>(
        _ body: @escaping @Sendable (_ emit: @escaping @Sendable (Result<Event, TapOnMobileError>) -> Void) async -> Void
    ) -> AsyncStream<Result<Event, TapOnMobileError>> {
        let reader = self.reader
        return AsyncStream { continuation in
            let task = Task {
                await body { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { termination in
                guard case .cancelled = termination else { return }
                task.cancel()
                Task { await reader.cancelRead() }
            }
        }
    }
}
