import Foundation
import SandboxCore
import Testing

/// `sandbox-data/merchants.json` gives every region merchants and terminals that exercise
/// every switch a tester needs.
@Suite struct ShippedMerchantsTests {
    let environments: EnvironmentCatalogue
    let merchants: MerchantCatalogue

    init() throws {
        environments = try EnvironmentCatalogue.load(contentsOf: shippedDataDirectory.appendingPathComponent("environments.json"))
        merchants = try MerchantCatalogue.load(directory: shippedDataDirectory, environments: environments)
    }

    /// The seed's regions, whose fixtures cover every switch of a TapOnMobile terminal.
    static let regionIDs = ["EU", "ANZ", "PAYONE_DE", "PAYONE_AT", "PAYPHONE", "CAWL", "OPP", "ING", "MBANK"]

    /// Loads the shipped file alone, so that a tester's own `local/*.json` cannot change what is asserted.
    func shipped(_ id: String) throws -> (region: Region, fixtures: RegionFixtures) {
        let data = try Data(contentsOf: shippedDataDirectory.appendingPathComponent("merchants.json"))
        let catalogue = try MerchantCatalogue.decode(data, environments: environments)
        return (try #require(environments.region(id)), try #require(catalogue.region(id)))
    }

    func terminals(_ id: String) throws -> [TerminalProfile] {
        try shipped(id).fixtures.merchants.flatMap(\.terminals)
    }

    @Test func givesEveryRegionOfTheEnvironmentCatalogue() {
        #expect(environments.regions.map(\.id) == Self.regionIDs + ["MONEI", "PAGBANK", "GEOPAGOS"])
        for id in Self.regionIDs + ["MONEI", "PAGBANK", "GEOPAGOS"] {
            #expect(merchants.region(id) != nil, "\(id)")
        }
        #expect(merchants.region("eu") == nil)
        #expect(merchants.region("NOWHERE") == nil)
    }

    @Test(arguments: regionIDs)
    func hasTwoMerchantsWithThreeTerminalsEach(region id: String) throws {
        let fixtures = try shipped(id).fixtures
        #expect(fixtures.merchants.map(\.id) == ["\(id)-M01", "\(id)-M02"])
        #expect(fixtures.merchants[0].terminals.map(\.id) == ["\(id)-T0101", "\(id)-T0102", "\(id)-T0103"])
        #expect(fixtures.merchants[1].terminals.map(\.id) == ["\(id)-T0201", "\(id)-T0202", "\(id)-T0203"])
        for merchant in fixtures.merchants {
            #expect(!merchant.name.isEmpty && !merchant.address1.isEmpty && !merchant.address2.isEmpty)
            #expect(merchant.email?.hasPrefix("owner@") == true && merchant.email?.hasSuffix(".example") == true)
        }
    }

    @Test(arguments: regionIDs)
    func usesDistinctTestKeysOfTheRegion(region id: String) throws {
        let fixtures = try shipped(id).fixtures
        let prefix = id.lowercased() + "_"
        #expect(Self.isTestKey(fixtures.backOfficeKey, kind: "bo_test_" + prefix))
        for merchant in fixtures.merchants {
            #expect(Self.isTestKey(merchant.apiKey, kind: "sk_test_" + prefix), "\(merchant.id)")
        }
    }

    @Test func neverUsesAKeyTwice() throws {
        let keys = (Self.regionIDs + ["MONEI", "PAGBANK", "GEOPAGOS"]).compactMap { merchants.region($0) }
            .flatMap { [$0.backOfficeKey] + $0.merchants.map(\.apiKey) + $0.partners.map(\.appKey) }
        #expect(keys.count == 38)
        #expect(Set(keys).count == keys.count)
    }

    /// MONEI's accounts have keys shaped like MONEI's test keys (`pk_test_` and 32 hex digits), and
    /// points of sale of their own.
    @Test func moneiAccountsHaveMoneiTestKeys() throws {
        let fixtures = try shipped("MONEI").fixtures
        #expect(fixtures.merchants.map(\.id) == ["MONEI-M01", "MONEI-M02"])
        for merchant in fixtures.merchants {
            #expect(Self.isTestKey(merchant.apiKey, kind: "pk_test_", length: 32), "\(merchant.apiKey)")
            #expect(!merchant.terminals.isEmpty)
        }
    }

    static func isTestKey(_ key: String, kind prefix: String, length: Int = 24) -> Bool {
        guard key.hasPrefix(prefix) else { return false }
        let suffix = key.dropFirst(prefix.count)
        return suffix.count == length && suffix.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    // MARK: Switch coverage, per region

    @Test(arguments: regionIDs)
    func coversLoginAndRegistrationSwitches(region id: String) throws {
        let terminals = try terminals(id)
        #expect(terminals.contains { $0.autoLogin }, "an auto-login terminal")
        #expect(terminals.contains { !$0.autoLogin }, "a terminal that needs the secure code")
        #expect(terminals.filter { $0.registerOptions == [.portal, .registrationCode] }.count >= 4, "both register options on most")
        #expect(terminals.contains { $0.registerOptions == [.registrationCode] }, "registration code only")
        #expect(terminals.contains { $0.registerOptions == [.portal] }, "portal only")
    }

    @Test(arguments: regionIDs)
    func coversRefundReversalAndLimitSwitches(region id: String) throws {
        let (region, fixtures) = try shipped(id)
        let terminals = fixtures.merchants.flatMap(\.terminals)
        #expect(terminals.contains { !$0.refundAvailable }, "refunds off")
        #expect(terminals.contains { !$0.reversalAvailable }, "reversals off")
        #expect(terminals.contains { $0.refundAvailable && $0.reversalAvailable }, "both on")
        let maximum = region.limits.maxTransactionAmount
        #expect(terminals.allSatisfy { $0.limitAmount > 0 && $0.limitAmount <= maximum })
        #expect(terminals.contains { $0.limitAmount == maximum }, "a terminal at the region's maximum")
        #expect(terminals.contains { $0.limitAmount * 10 < maximum }, "a low limit")
    }

    @Test(arguments: regionIDs)
    func coversCountryReferenceAndCodeSwitches(region id: String) throws {
        let (region, fixtures) = try shipped(id)
        let terminals = fixtures.merchants.flatMap(\.terminals)
        let restricted = try #require(terminals.first { $0.permittedCountries != nil }, "permitted countries")
        #expect(restricted.permittedCountries?.contains(region.country) == true)
        #expect(terminals.contains { $0.permittedCountries == nil }, "a terminal that trades anywhere")
        let pattern = try #require(terminals.compactMap(\.reference.pattern).first, "a reference pattern")
        #expect(throws: Never.self) { try NSRegularExpression(pattern: pattern) }
        #expect(terminals.contains { $0.reference.enabled && $0.reference.pattern == nil }, "a free-text reference")
        let codes = terminals.compactMap(\.terminalCode)
        #expect(codes.contains { $0.count == 4 } && codes.contains { $0.count == 6 }, "terminal codes")
        #expect(codes.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    }

    @Test(arguments: regionIDs)
    func offersTipsExactlyWhereTheRegionDoes(region id: String) throws {
        let (region, fixtures) = try shipped(id)
        let terminals = fixtures.merchants.flatMap(\.terminals)
        let tipping = terminals.filter(\.tips.enabled)
        if region.features.tips {
            let capped = try #require(tipping.first { $0.tips.maxAmount != nil && $0.tips.maxPercentage != nil })
            #expect(capped.tips.rates == [5, 10, 15])
            #expect(try #require(capped.tips.maxAmount) <= (region.limits.maxTipAmount ?? .max))
            #expect(tipping.contains { $0.tips.maxAmount == nil && $0.tips.maxPercentage == nil }, "region caps")
            #expect(terminals.contains { !$0.tips.enabled }, "tips off")
        } else {
            #expect(tipping.isEmpty)
        }
    }

    @Test(arguments: regionIDs)
    func offersAPMsExactlyWhereTheRegionDoes(region id: String) throws {
        let (region, fixtures) = try shipped(id)
        let terminals = fixtures.merchants.flatMap(\.terminals)
        let withAPMs = terminals.filter(\.apm.enabled)
        #expect(!withAPMs.isEmpty == ["EU", "ANZ"].contains(id))
        #expect(region.features.apms.isEmpty == withAPMs.isEmpty)
        if let full = withAPMs.first {
            #expect(full.apm.brands.map(\.brandName) == region.features.apms, "every brand of the region")
            #expect(withAPMs.contains { $0.apm.brands.contains { !$0.isActive } }, "a paused brand")
        }
        for terminal in withAPMs {
            let properties = terminal.dynamicProperties
            #expect([properties.apmTimeout, properties.apmPulling, properties.apmRefundTimeout] == [300, 5, 60])
        }
    }

    @Test(arguments: regionIDs)
    func offersBLIKOnlyAtMBank(region id: String) throws {
        let terminals = try terminals(id)
        let blik = terminals.filter { $0.blikEnabled == true }
        if id == "MBANK" {
            #expect(!blik.isEmpty)
            #expect(terminals.contains { $0.blikEnabled == false }, "a terminal with BLIK off")
            for terminal in blik {
                #expect(terminal.dynamicProperties.blikTimeout == 120)
                #expect(terminal.dynamicProperties.blikPulling == 3)
            }
        } else {
            #expect(blik.isEmpty)
            #expect(terminals.allSatisfy { $0.dynamicProperties.blikTimeout == nil })
        }
    }

    // MARK: Look-ups

    @Test func findsTerminalsMerchantsAndKeys() throws {
        let eu = try #require(merchants.region("EU"))
        let found = try #require(eu.terminal("EU-T0202"))
        #expect(found.merchant.id == "EU-M02")
        #expect(found.terminal.profileId == "prf_eu_terrace")
        #expect(eu.terminal("ANZ-T0101") == nil)
        #expect(eu.merchant("EU-M01")?.name == "Brasserie Lumière")
        let key = try #require(eu.merchant("EU-M02")?.apiKey)
        #expect(eu.merchant(apiKey: key)?.id == "EU-M02")
        #expect(eu.merchant(apiKey: eu.backOfficeKey) == nil)
        #expect(eu.merchant("EU-M01")?.terminal("EU-T0103")?.reversalAvailable == false)
    }

    @Test func survivesAnEncodeDecodeRoundTrip() throws {
        let eu = try #require(merchants.region("EU"))
        let data = try JSONEncoder().encode(eu)
        #expect(try JSONDecoder().decode(RegionFixtures.self, from: data) == eu)
    }
}
