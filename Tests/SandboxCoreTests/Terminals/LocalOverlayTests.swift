import Foundation
import SandboxCore
import SandboxTestSupport
import Testing

/// `sandbox-data/local/*.json` adds a tester's own merchants without touching `merchants.json`.
@Suite struct LocalOverlayTests {
    let environments: EnvironmentCatalogue
    let directory = TemporaryDirectory()

    init() throws {
        environments = try FixtureTestRegions.catalogue()
        try Data(MinimalMerchants.document.utf8).write(to: directory.file("merchants.json"))
    }

    func writeLocal(_ name: String, _ text: String) throws {
        let folder = directory.file("local")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    func load() throws(CatalogueError) -> MerchantCatalogue {
        try MerchantCatalogue.load(directory: directory.url, environments: environments)
    }

    func failure(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: CatalogueError.self, sourceLocation: sourceLocation) { try load() }
        #expect(error?.description == message, sourceLocation: sourceLocation)
    }

    @Test func loadsWithoutALocalFolder() throws {
        let catalogue = try load()
        #expect(catalogue.region("EU")?.merchants.map(\.id) == ["EU-M01"])
        #expect(catalogue.region("MBANK")?.merchants.map(\.id) == ["MBANK-M01"])
    }

    @Test func addsALocalMerchantAfterTheShippedOnes() throws {
        try writeLocal("shop.json", MinimalMerchants.overlay())
        let catalogue = try load()
        let eu = try #require(catalogue.region("EU"))
        #expect(eu.merchants.map(\.id) == ["EU-M01", "EU-M90"])
        #expect(eu.backOfficeKey == "bo_test_eu_000000000000000000000001")
        let found = try #require(eu.terminal("EU-T9001"))
        #expect(found.merchant.name == "My Test Shop")
        #expect(found.terminal.limitAmount == 2500)
        #expect(found.terminal.dynamicProperties == TerminalProfile.DynamicProfile())
        #expect(eu.merchant(apiKey: "sk_test_eu_local_000000000090")?.id == "EU-M90")
        #expect(catalogue.region("MBANK")?.merchants.count == 1)
    }

    @Test func mergesLocalFilesInNameOrderAndSkipsOthers() throws {
        try writeLocal("20-second.json", MinimalMerchants.overlay(merchant: "EU-M92", terminal: "EU-T9201", apiKey: "sk_test_eu_local_92"))
        try writeLocal("10-first.json", MinimalMerchants.overlay(merchant: "EU-M91", terminal: "EU-T9101", apiKey: "sk_test_eu_local_91"))
        try writeLocal("README.md", "# not fixtures")
        try writeLocal(".draft.json", "{ not even JSON")
        try writeLocal("notes.json.bak", "{ not even JSON")
        let catalogue = try load()
        #expect(catalogue.region("EU")?.merchants.map(\.id) == ["EU-M01", "EU-M91", "EU-M92"])
    }

    @Test func acceptsTheRegionsOwnBackOfficeKey() throws {
        try writeLocal("shop.json", MinimalMerchants.overlay(backOfficeKey: "bo_test_eu_000000000000000000000001"))
        #expect(try load().region("EU")?.merchants.count == 2)
    }

    @Test func refusesAnotherBackOfficeKey() throws {
        try writeLocal("shop.json", MinimalMerchants.overlay(backOfficeKey: "bo_test_eu_mine_0000000001"))
        failure("local/shop.json: regions.EU.backOfficeKey: must be left out or be the region's key from merchants.json (bo_test_eu_000000000000000000000001)")
    }

    @Test func refusesAMerchantIDThatExists() throws {
        try writeLocal("shop.json", MinimalMerchants.overlay(merchant: "EU-M01"))
        failure(#"local/shop.json: regions.EU.merchants[0].id: merchant id "EU-M01" is already used at merchants.json: regions.EU.merchants[0].id"#)
    }

    @Test func refusesATerminalIDThatExists() throws {
        try writeLocal("shop.json", MinimalMerchants.overlay(terminal: "MBANK-T0101"))
        failure(#"local/shop.json: regions.EU.merchants[0].terminals[0].id: terminal id "MBANK-T0101" is already used at merchants.json: regions.MBANK.merchants[0].terminals[0].id"#)
    }

    @Test func refusesAnAPIKeyThatExists() throws {
        try writeLocal("shop.json", MinimalMerchants.overlay(apiKey: "sk_test_mbank_000000000000000000000001"))
        failure(#"local/shop.json: regions.EU.merchants[0].apiKey: key "sk_test_mbank_000000000000000000000001" is already used at merchants.json: regions.MBANK.merchants[0].apiKey"#)
    }

    @Test func refusesAnIDThatAnEarlierLocalFileTook() throws {
        try writeLocal("a.json", MinimalMerchants.overlay(merchant: "EU-M91", terminal: "EU-T9001", apiKey: "sk_test_eu_local_91"))
        try writeLocal("b.json", MinimalMerchants.overlay(merchant: "EU-M92", terminal: "EU-T9001", apiKey: "sk_test_eu_local_92"))
        failure(#"local/b.json: regions.EU.merchants[0].terminals[0].id: terminal id "EU-T9001" is already used at local/a.json: regions.EU.merchants[0].terminals[0].id"#)
    }

    @Test func checksLocalTerminalsAgainstTheirRegion() throws {
        let overlay = MinimalMerchants.overlay()
            .replacingOccurrences(of: #""EU": {"#, with: #""MBANK": {"#)
            .replacingOccurrences(of: #""tips": { "enabled": false"#, with: #""tips": { "enabled": true"#)
        try writeLocal("shop.json", overlay)
        failure("local/shop.json: regions.MBANK.merchants[0].terminals[0].tips.enabled: must be false: region MBANK does not offer tips")
    }

    @Test func refusesAnUnknownRegionInALocalFile() throws {
        try writeLocal("shop.json", MinimalMerchants.overlay().replacingOccurrences(of: #""EU": {"#, with: #""BE": {"#))
        failure("local/shop.json: regions.BE: unknown region (expected one of EU, MBANK)")
    }

    @Test func namesABrokenLocalFile() throws {
        try writeLocal("shop.json", "{")
        let error = #expect(throws: CatalogueError.self) { try load() }
        #expect(error?.code == .notJSON)
        #expect(error?.description.hasPrefix("local/shop.json: (root): not valid JSON") == true)
    }

    @Test func acceptsTheExampleInTheLocalREADME() throws {
        let readme = try String(contentsOf: shippedDataDirectory.appendingPathComponent("local/README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```json\n"))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let example = Data(readme[start.upperBound..<end.lowerBound].utf8)
        let shipped = try Data(contentsOf: shippedDataDirectory.appendingPathComponent("merchants.json"))
        let environments = try EnvironmentCatalogue.load(contentsOf: shippedDataDirectory.appendingPathComponent("environments.json"))
        let catalogue = try MerchantCatalogue.decode(shipped, overlays: [("local/example.json", example)], environments: environments)
        let found = try #require(catalogue.region("EU")?.terminal("EU-SHOP1-T01"))
        #expect(found.merchant.id == "EU-SHOP1")
        #expect(catalogue.region("EU")?.merchants.count == 3)
    }

    @Test func refusesAMissingShippedFile() throws {
        let empty = TemporaryDirectory()
        let url = empty.file("merchants.json")
        #expect(throws: CatalogueError(
            code: .unreadable, file: "merchants.json", path: "(root)", reason: "cannot read \(url.path): no such file")) {
            try MerchantCatalogue.load(directory: empty.url, environments: environments)
        }
    }
}
