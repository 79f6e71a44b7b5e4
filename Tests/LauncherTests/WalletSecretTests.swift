import Foundation
import Launcher
import SandboxCore
import SandboxTestSupport
import Testing

/// The host's wallet secret from `sandbox-data/wallet.json`: read per region, and a clear start-up
/// error naming the file when it cannot be.
@Suite struct WalletSecretTests {
    /// A copy of sandbox-data whose wallet.json is `text` (nil: no such file).
    static func resources(walletJSON text: String?) throws -> (Resources, TemporaryDirectory) {
        let folder = TemporaryDirectory()
        let data = folder.file("sandbox-data")
        try FileManager.default.copyItem(at: Paths.sandboxData, to: data)
        let wallet = data.appendingPathComponent("wallet.json")
        try FileManager.default.removeItem(at: wallet)
        if let text { try Data(text.utf8).write(to: wallet) }
        return (try Resources.load(sandboxData: data, web: Paths.web, openAPI: Paths.openAPI), folder)
    }

    @Test("each region's host gets its own secret of the shipped wallet.json")
    func shippedSecrets() throws {
        let resources = try Resources.load(sandboxData: Paths.sandboxData, web: Paths.web, openAPI: Paths.openAPI)
        let secrets = try resources.catalogue.regions.map { try resources.walletSecret($0) }
        #expect(Set(secrets).count == resources.catalogue.regions.count, "one secret per region: \(secrets)")
        #expect(try resources.walletSecret(try #require(resources.catalogue.region("EU"))) == "wsec_eu_7f3c9a1e5b2d4086")
    }

    @Test("a missing file, one that is not JSON, or no secret for the region stops the host with the file's name", arguments: [
        nil, "{not json", #"{"secrets": []}"#, #"{"secrets": {"ANZ": "x"}}"#, #"{"secrets": {"EU": ""}}"#,
    ])
    func brokenFile(_ text: String?) throws {
        let (resources, folder) = try Self.resources(walletJSON: text)
        _ = folder
        let eu = try #require(resources.catalogue.region("EU"))
        #expect {
            try resources.walletSecret(eu)
        } throws: { error in
            "\(error)".contains("wallet.json") && !"\(error)".isEmpty
        }
    }
}
