import CardPayload
import Foundation
import Testing
import SandboxTestSupport

@Suite("reader-keys.json")
struct ReaderKeysTests {
    static let regions = ["EU", "ANZ", "PAYONE_DE", "PAYONE_AT", "PAYPHONE", "CAWL", "OPP", "ING", "MBANK", "MONEI", "PAGBANK", "GEOPAGOS"]

    @Test func theShippedFileHasDistinctKeysOnePerRegion() throws {
        let keys = try ReaderKeys.load(from: Paths.sandboxData.appendingPathComponent("reader-keys.json"))
        #expect(Set(keys.regions) == Set(Self.regions))
        #expect(keys.regions.count == Self.regions.count)
        let all = Self.regions.compactMap { keys.key(for: $0) }
        #expect(all.count == Self.regions.count)
        #expect(all.allSatisfy { $0.count == 32 })
        #expect(Set(all).count == Self.regions.count)
        try keys.requireRegions(Self.regions)
    }

    @Test func keyIdNamesTheRegionAndChangesWithTheKey() throws {
        let one = try ReaderKeys(keys: ["EU": Array(0..<32)])
        let two = try ReaderKeys(keys: ["EU": Array(1..<33)])
        let id = try #require(one.keyId(for: "EU"))
        #expect(id.hasPrefix("EU-"))
        #expect(id.count == 11)
        #expect(id != two.keyId(for: "EU"))
        #expect(one.keyId(for: "ANZ") == nil)
    }

    @Test func aMissingRegionIsReported() throws {
        let keys = try ReaderKeys(keys: ["EU": Array(0..<32)])
        #expect(throws: PayloadError.invalidKeyFile) { try keys.requireRegions(["EU", "ANZ"]) }
        do {
            try keys.requireRegions(["EU", "ANZ"])
        } catch {
            #expect(error.message == "reader-keys.json: ANZ: no reader key for this region")
        }
    }

    @Test(arguments: [
        (#"{"EU": "00"}"#, "reader-keys.json: EU: must be 64 hex characters (32 bytes)"),
        (#"{"EU": "\#(String(repeating: "zz", count: 32))"}"#, "reader-keys.json: EU: must be 64 hex characters (32 bytes)"),
        (#"{"EU": 12}"#, "reader-keys.json: EU: must be a string of 64 hex characters"),
        (#"["EU"]"#, "reader-keys.json: (root): must be an object of region id to key"),
        (#"{}"#, "reader-keys.json: (root): must give at least one region"),
        (#"{"eu": "\#(String(repeating: "ab", count: 32))"}"#, "reader-keys.json: eu: region id must be upper-case letters, digits and _"),
        (#"{"ANZ": "\#(String(repeating: "ab", count: 32))", "EU": "\#(String(repeating: "AB", count: 32))"}"#,
         "reader-keys.json: EU: same key as ANZ; every region needs its own"),
        ("{", "reader-keys.json: (root): not valid JSON"),
    ])
    func brokenFilesAreRefusedWithTheField(json: String, message: String) {
        do {
            _ = try ReaderKeys(json: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error == .invalidKeyFile)
            #expect(error.message == message)
        }
    }
}
