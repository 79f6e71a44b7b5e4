import Foundation
import HostTestSupport
import SimulatedReader
import TapOnMobileSandbox
import TapOnPartner
import SandboxTestSupport
import Testing

/// PagBank's Tap On through the seed's ExampleViewModel, against the PagBank host: activation,
/// sales, cancels (a reversal, and a refund once the sale can no longer be reversed) and logout.
/// Serialized: the example prints, and the tests read what it printed.
@Suite("PagBank Tap On: the seed's example on the PagBank host", .serialized, .vendorApp("PAGBANK"))
@MainActor
struct TapOnPartnerTests {
    static let appKey = "tapon_test_5f0c2d8e91b34a7c"

    /// A PagBank host in this process and a device folder, the customer tapping `visa-br`.
    final class Stage {
        let host: InProcessHost
        let folder = TemporaryDirectory()

        init() throws {
            host = try InProcessHost(region: "PAGBANK")
            let visa = ShippedCards.card("visa-br")
            var sandbox = TapOnPartnerSandbox()
            sandbox.device = SandboxConfiguration(
                endpointOverrides: ["PAGBANK": URL(string: host.host.url)!], endpointsFile: nil, deviceDirectory: folder.file("device"),
                clock: ManualReaderClock(), readerScript: ReaderScript(preparationSeconds: 2), cardScripts: { _ in .tap(visa) },
                location: .authorized(country: "BR", fixAfter: 0))
            TapOnPartnerSandbox.current = sandbox
        }

        deinit { host.stop() }
    }

    /// Runs `step` on the example and returns the lines it printed once every operation it asked for ended.
    func run(_ model: ExampleViewModel, _ step: () -> Void) async -> [String] {
        let mark = printed.count
        step()
        await model.tapOn?.waitUntilIdle()
        return printed.lines(after: mark)
    }

    /// The `transactionCode` in a printed `paymentResult: TapOnPaymentResult(transactionCode: Optional("…"), …)`.
    func transactionCode(_ lines: [String]) -> String? {
        guard let line = lines.first(where: { $0.hasPrefix("paymentResult: ") }),
            let start = line.range(of: #"transactionCode: Optional(""#)
        else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test("activation: an unknown appKey is refused and a sale before activation fails; the partner's key activates")
    func activation() async throws {
        let stage = try Stage()
        let model = ExampleViewModel()
        _ = await run(model) { model.initTapOn(appKey: "tapon_test_not_a_partner") }
        #expect(await run(model) { model.activate() } == ["Activate with success: false"])
        #expect(model.tapOn?.isActive() == false)
        let early = await run(model) { model.payment(amount: 10.00) }
        #expect(early.count == 1 && early[0].hasPrefix("Error: not_activated"), "\(early)")

        _ = await run(model) { model.initTapOn(appKey: Self.appKey) }
        #expect(await run(model) { model.activate() } == ["Activate with success: true"])
        #expect(model.tapOn?.isActive() == true)

        // A sale asked for right after activate, before its event: it runs once the activation has ended.
        let fresh = ExampleViewModel()
        _ = await run(fresh) { fresh.initTapOn(appKey: Self.appKey) }
        _ = await run(fresh) { fresh.logout() }
        let queued = await run(fresh) {
            fresh.activate()
            fresh.payment(amount: 10.00)
        }
        #expect(queued.count == 2 && queued[0] == "Activate with success: true" && queued[1].hasPrefix("paymentResult: "), "\(queued)")
        _ = stage
    }

    @Test("sales: R$ 10,00 approved with every field; below R$ 1,00, above R$ 10.000,00 or with three decimals refused; a declined card fails")
    func sales() async throws {
        let stage = try Stage()
        let model = ExampleViewModel()
        _ = await run(model) { model.initTapOn(appKey: Self.appKey) }
        #expect(await run(model) { model.activate() } == ["Activate with success: true"])

        let approved = await run(model) { model.payment(amount: 10.07) }
        let line = try #require(approved.first { $0.hasPrefix("paymentResult: ") }, "\(approved)")
        for field in [#"amount: "1007""#, #"originalAmount: Optional("1007")"#, "installments: 1", #"paymentType: "credit""#,
                      #"cardBrand: Optional("VISA")"#, #"authCode: Optional(""#] {
            #expect(line.contains(field), "\(field) in \(line)")
        }
        #expect(transactionCode(approved)?.isEmpty == false)

        for (amount, code) in [(0.99, "amount_below_minimum"), (10_000.01, "amount_over_limit"), (10.005, "invalid_amount"), (-5, "invalid_amount")] {
            let refused = await run(model) { model.payment(amount: amount) }
            #expect(refused.count == 1 && refused[0].hasPrefix("Error: \(code)"), "\(amount): \(refused)")
        }
        // The limits themselves are sales.
        for amount in [1.00, 10_000.00] {
            let edge = await run(model) { model.payment(amount: amount) }
            #expect(edge.first?.hasPrefix("paymentResult: ") == true, "\(amount): \(edge)")
        }
        // 42.05: the issuer does not honour the card.
        let declined = await run(model) { model.payment(amount: 42.05) }
        #expect(declined.count == 1 && declined[0].hasPrefix("Error: 05"), "\(declined)")
        _ = stage
    }

    @Test("cancels: a wrong amount is refused; the latest sale is reversed, an older one refunded in full; logout ends activation")
    func cancels() async throws {
        let stage = try Stage()
        let model = ExampleViewModel()
        _ = await run(model) { model.initTapOn(appKey: Self.appKey) }
        #expect(await run(model) { model.activate() } == ["Activate with success: true"])
        let older = try #require(transactionCode(await run(model) { model.payment(amount: 12.00) }))
        let latest = try #require(transactionCode(await run(model) { model.payment(amount: 10.00) }))

        let wrong = await run(model) { model.cancelPayment(transactionCode: latest, amount: "999") }
        #expect(wrong.count == 1 && wrong[0].hasPrefix("Error: amount_mismatch"), "\(wrong)")
        let reversed = await run(model) { model.cancelPayment(transactionCode: latest, amount: "1000") }
        #expect(reversed == [#"cancelResult: TapOnCancelResult(amount: "1000", refCode: "\#(latest)")"#], "\(reversed)")
        let again = await run(model) { model.cancelPayment(transactionCode: latest, amount: "1000") }
        #expect(again.count == 1 && again[0].hasPrefix("Error: "), "a cancelled sale is not cancelled twice: \(again)")

        // The older sale can no longer be reversed: it is refunded, the whole amount or nothing.
        let partial = await run(model) { model.cancelPayment(transactionCode: older, amount: "600") }
        #expect(partial.count == 1 && partial[0].hasPrefix("Error: amount_mismatch"), "\(partial)")
        let refunded = await run(model) { model.cancelPayment(transactionCode: older, amount: "1200") }
        #expect(refunded.count == 1 && refunded[0].hasPrefix(#"cancelResult: TapOnCancelResult(amount: "1200", refCode: ""#), "\(refunded)")
        #expect(refunded.first?.contains(older) == false, "the refund has its own code: \(refunded)")

        #expect(await run(model) { model.logout() } == ["Ativado? false"])
        // A new launch finds Tap On off, and a sale fails until the next activation.
        _ = await run(model) { model.initTapOn(appKey: Self.appKey) }
        #expect(model.tapOn?.isActive() == false)
        let afterLogout = await run(model) { model.payment(amount: 10.00) }
        #expect(afterLogout.count == 1 && afterLogout[0].hasPrefix("Error: not_activated"), "\(afterLogout)")
        // The terminal was freed: activating again gets a terminal.
        #expect(await run(model) { model.activate() } == ["Activate with success: true"])
        _ = stage
    }

    @Test("isActive survives a new launch of the app; centavos come from reais without drift")
    func launchesAndAmounts() async throws {
        let stage = try Stage()
        let model = ExampleViewModel()
        _ = await run(model) { model.initTapOn(appKey: Self.appKey) }
        _ = await run(model) { model.activate() }
        let relaunched = ExampleViewModel()
        _ = await run(relaunched) { relaunched.initTapOn(appKey: Self.appKey) }
        #expect(relaunched.tapOn?.isActive() == true)
        // Every amount with two decimals up to R$ 100,00 is its centavos exactly.
        for cents in stride(from: 100, through: 10_000, by: 1) {
            let reais = Double(cents) / 100
            #expect(TapOnPartnerAmounts.centavos(reais) == cents, "\(reais)")
        }
        #expect(TapOnPartnerAmounts.centavos(0.1 + 0.2) == 30)
        #expect(TapOnPartnerAmounts.centavos(19.999) == nil)
        _ = stage
    }
}
