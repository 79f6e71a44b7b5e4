import Foundation
import SandboxCore
import SandboxWire
import Testing

/// The catalogue in `sandbox-data/environments.json` carries the seed's environment table.
@Suite struct ShippedCatalogueTests {
    let catalogue: EnvironmentCatalogue

    init() throws {
        catalogue = try EnvironmentCatalogue.load(contentsOf: shippedCatalogueFile)
    }

    @Test func listsTheNineDocumentedRegionsInOrderThenTheOtherVendors() {
        #expect(catalogue.regions.map(\.id) == ["EU", "ANZ", "PAYONE_DE", "PAYONE_AT", "PAYPHONE", "CAWL", "OPP", "ING", "MBANK", "MONEI", "PAGBANK", "GEOPAGOS"])
        #expect(catalogue.regions.filter { $0.vendor == .worldline }.count == 9)
        #expect(catalogue.region("MONEI")?.vendor == .monei)
    }

    @Test func putsVendorRegionsAfterTheInboxInSandboxUpsLayout() {
        let ports = catalogue.ports
        #expect(ports.offset(of: "EU") == 0 && ports.offset(of: "MBANK") == 8)
        #expect(ports.portal == 9 && ports.wallet == 10 && ports.inbox == 11)
        #expect(ports.offset(of: "MONEI") == 12 && ports.offset(of: "PAGBANK") == 13 && ports.offset(of: "GEOPAGOS") == 14 && ports.count == 15)
    }

    /// The device side's copy of the layout (it has no catalogue) is the catalogue's.
    @Test func deviceSidesDefaultPortsAreTheCataloguesLayout() {
        let ports = catalogue.ports
        let worldline = catalogue.regions.filter { $0.vendor == .worldline }.map(\.id)
        #expect(DefaultPorts.worldlineRegions == worldline)
        #expect(worldline.enumerated().allSatisfy { ports.offset(of: $1) == $0 })
        #expect(ports.portal == DefaultPorts.portalOffset && ports.wallet == DefaultPorts.walletOffset && ports.inbox == DefaultPorts.inboxOffset)
        let others = catalogue.regions.filter { $0.vendor != .worldline }.map(\.id)
        #expect(Set(others) == Set(DefaultPorts.vendorRegionOffsets.keys))
        #expect(others.allSatisfy { ports.offset(of: $0) == DefaultPorts.vendorRegionOffsets[$0] })
    }

    @Test(arguments: [
        ("EU", Flavour.sandbox, "sandbox-wl-emea.softpos.eu"),
        ("EU", .pre, "preprod-wl-emea.softpos.eu"),
        ("EU", .prod, "worldline.softpos.eu"),
        ("ANZ", .sandbox, "taponmobile.portal.sandbox.anzworldline-solutions.com.au"),
        ("ANZ", .prod, "taponmobile.portal.anzworldline-solutions.com.au"),
        ("PAYONE_DE", .sandbox, "payone-de-sandbox.softpos.eu"),
        ("PAYONE_AT", .sandbox, "sandbox-payone-at.softpos.eu"),
        ("PAYONE_AT", .pre, "preprod-payone-at.softpos.eu"),
        ("PAYPHONE", .prod, "portal.payphone.cz"),
        ("OPP", .pre, "portal-opp.taponmobile.preprod.worldline-solutions.com"),
        ("ING", .prod, "portal-ing-it.taponmobile.worldline-solutions.com"),
        ("MBANK", .sandbox, "portal-mbank.taponmobile.sandbox.worldline-solutions.com"),
        // The seed gives mBank's pre-production the sandbox host; we keep what it says.
        ("MBANK", .pre, "portal-mbank.taponmobile.sandbox.worldline-solutions.com"),
        ("MBANK", .prod, "portal-mbank.taponmobile.worldline-solutions.com"),
    ])
    func carriesTheSeedHostname(region: String, flavour: Flavour, hostname: String) throws {
        let region = try #require(catalogue.region(region))
        #expect(region.flavours[flavour].hostname == hostname)
    }

    @Test func hasNoHostWhereTheSeedGivesNone() throws {
        for region in catalogue.regions {
            #expect(region.flavours.uat.hostname == nil, "\(region.id) uat")
        }
        let cawl = try #require(catalogue.region("CAWL"))
        #expect(Flavour.allCases.allSatisfy { cawl.flavours[$0].hostname == nil })
        let hosted = catalogue.regions.flatMap { region in Flavour.allCases.compactMap { region.flavours[$0].hostname } }
        #expect(hosted.count == 26)
    }

    @Test func namesTheSeedEnumCasePerFlavour() throws {
        let names = catalogue.regions.map { region in Flavour.allCases.map { region.flavours[$0].sdkEnvironment } }
        #expect(names[0] == ["uatEU", "sandboxEU", "preEU", "prodEU"])
        #expect(names[4] == ["uatPayPhone", "sandboxPayPhone", "prePayPhone", "prodPayPhone"])
        #expect(names[8] == ["uatMBANK", "sandboxMBANK", "preMBANK", "prodMBANK"])
        // The seed's Payone cases are Payone Germany; Austria gets the sandbox's own …PayoneAT cases.
        #expect(names[2] == ["uatPayone", "sandboxPayone", "prePayone", "prodPayone"])
        #expect(names[3] == ["uatPayoneAT", "sandboxPayoneAT", "prePayoneAT", "prodPayoneAT"])
    }

    @Test func sessionsLastTenMinutesInTestStagesAndEightHoursLive() {
        for region in catalogue.regions {
            #expect(region.flavours.uat.sessionLengthSeconds == 600, "\(region.id)")
            #expect(region.flavours.sandbox.sessionLengthSeconds == 600, "\(region.id)")
            #expect(region.flavours.pre.sessionLengthSeconds == 28_800, "\(region.id)")
            #expect(region.flavours.prod.sessionLengthSeconds == 28_800, "\(region.id)")
        }
    }

    @Test func tradesInEachRegionsCurrencyAndCountry() {
        #expect(catalogue.regions.map(\.currency.code) == ["EUR", "AUD", "EUR", "EUR", "CZK", "EUR", "EUR", "EUR", "PLN", "EUR", "BRL", "ARS"])
        #expect(catalogue.regions.map(\.country) == ["BE", "AU", "DE", "AT", "CZ", "FR", "NL", "IT", "PL", "ES", "BR", "AR"])
    }

    @Test func offersEnglishEverywhereAndTheLocalLanguage() throws {
        #expect(catalogue.regions.allSatisfy { $0.languages.contains(.english) })
        #expect(try #require(catalogue.region("MBANK")).languages == [.english, .polish])
        #expect(try #require(catalogue.region("PAYPHONE")).languages.contains(.czech))
        #expect(try #require(catalogue.region("EU")).languages.count == TapOnMobileLanguage.allCases.count)
    }

    @Test func offersBLIKOnlyAtMBank() {
        #expect(catalogue.regions.filter(\.features.blik).map(\.id) == ["MBANK"])
    }

    @Test func findsRegionsByExactID() {
        #expect(catalogue.region("PAYONE_AT")?.name == "PAYONE Austria")
        #expect(catalogue.region("payone_at") == nil)
        #expect(catalogue.region("NOWHERE") == nil)
    }

    @Test func survivesAnEncodeDecodeRoundTrip() throws {
        let data = try JSONEncoder().encode(catalogue)
        #expect(try EnvironmentCatalogue.decode(data, file: "round-trip.json") == catalogue)
    }
}
