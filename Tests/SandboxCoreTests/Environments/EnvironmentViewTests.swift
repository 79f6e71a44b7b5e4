import Foundation
import SandboxCore
import Testing

/// `Region.view(flavour:)` is the body of `GET /v1/environment`.
@Suite struct EnvironmentViewTests {
    let catalogue: EnvironmentCatalogue

    init() throws {
        catalogue = try EnvironmentCatalogue.load(contentsOf: shippedCatalogueFile)
    }

    /// The view as a client in any language sees it: plain JSON.
    func json(_ view: EnvironmentView) throws -> [String: Any] {
        let data = try JSONEncoder().encode(view)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func describesTheChosenFlavour() throws {
        let eu = try #require(catalogue.region("EU"))
        let view = eu.view(flavour: .sandbox)
        #expect(view.flavour == .sandbox)
        #expect(view.hostname == "sandbox-wl-emea.softpos.eu")
        #expect(view.sdkEnvironment == "sandboxEU")
        #expect(view.sessionLengthSeconds == 600)
        #expect(eu.view(flavour: .prod).sessionLengthSeconds == 28_800)
        #expect(eu.view(flavour: .prod).hostname == "worldline.softpos.eu")
    }

    @Test func encodesTheDocumentedShape() throws {
        let mbank = try #require(catalogue.region("MBANK"))
        let object = try json(mbank.view(flavour: .pre))
        #expect(Set(object.keys) == [
            "id", "name", "flavour", "hostname", "sdkEnvironment", "sessionLengthSeconds",
            "country", "currency", "currencyExponent", "languages", "supportPhone", "limits",
            "apms", "blik", "dcc", "tips", "refunds", "reversals",
        ])
        #expect(object["id"] as? String == "MBANK")
        #expect(object["flavour"] as? String == "pre")
        #expect(object["hostname"] as? String == "portal-mbank.taponmobile.sandbox.worldline-solutions.com")
        #expect(object["sdkEnvironment"] as? String == "preMBANK")
        #expect(object["sessionLengthSeconds"] as? Int == 28_800)
        #expect(object["currency"] as? String == "PLN")
        #expect(object["currencyExponent"] as? Int == 2)
        #expect(object["languages"] as? [String] == ["english", "polish"])
        #expect(object["blik"] as? Bool == true)
        let limits = try #require(object["limits"] as? [String: Any])
        #expect(limits["maxTransactionAmount"] as? Int == 4_000_000)
    }

    @Test func writesNullWhereTheSeedGivesNoHost() throws {
        let cawl = try #require(catalogue.region("CAWL"))
        let object = try json(cawl.view(flavour: .sandbox))
        #expect(object["hostname"] is NSNull)
        #expect(object["sdkEnvironment"] as? String == "sandboxCAWL")
    }

    @Test(arguments: Flavour.allCases)
    func decodesBackToTheSameView(flavour: Flavour) throws {
        for region in catalogue.regions {
            let view = region.view(flavour: flavour)
            let data = try JSONEncoder().encode(view)
            #expect(try JSONDecoder().decode(EnvironmentView.self, from: data) == view)
        }
    }

    @Test func clientsIgnoreFieldsTheyDoNotKnow() throws {
        let eu = try #require(catalogue.region("EU"))
        var object = try json(eu.view(flavour: .uat))
        object["addedLater"] = "anything"
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(EnvironmentView.self, from: data) == eu.view(flavour: .uat))
    }
}
