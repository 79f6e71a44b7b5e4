import TapsimCLI
import Testing

/// Each test of a suite that drives a vendor's SDK directly (MONEI's, PagBank's, Geopagos') holds
/// that SDK's one turn in the test process while it runs: those SDKs keep one state per app (the
/// configured endpoint, the running transaction intent), and the tapsim suites run tapsim's commands
/// for that vendor in this same process, which take the same turn (``Tapsim/asTheOnlyApp(of:_:)``).
/// Without it, a tapsim payment started beside the test aborts the test's intent, or the other way round.
public struct VendorAppTurn: SuiteTrait, TestTrait, TestScoping {
    /// The vendor's region: `MONEI`, `PAGBANK` or `GEOPAGOS`; or `TapOnMobile.shared`, the
    /// TapOnMobile SDK's one shared device, which the seed's examples and the sample app use.
    public let region: String

    public var isRecursive: Bool { true }

    /// One turn per test case, none around the suite (which would hold it through every test).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> VendorAppTurn? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Tapsim.asTheOnlyApp(of: region, function)
    }
}

extension Trait where Self == VendorAppTurn {
    /// Each test holds the test process's one turn of `region`'s SDK while it runs (``VendorAppTurn``).
    public static func vendorApp(_ region: String) -> Self { VendorAppTurn(region: region) }
}
