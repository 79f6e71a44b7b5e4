import EnvironmentHost
import Foundation
import SandboxHTTP
import Testing
import SandboxTestSupport

/// The request journal as the back office reads it (`GET /backoffice/v1/requests`): what each
/// request was for.
@Suite struct RequestJournalRouteTests {
    let base = EnvironmentHostTests()

    func entries(_ host: EnvironmentHost, surface: String) throws -> [[String: Any]] {
        let key = try #require(EnvironmentHostTests.merchants.region("EU")?.backOfficeKey)
        let answer = host.respond(
            to: Request(method: "GET", path: "/backoffice/v1/requests", query: ["surface": surface], headers: ["authorization": "Bearer \(key)"]))
        #expect(answer.status == 200)
        return try #require(try base.json(answer)["requests"] as? [[String: Any]])
    }

    @Test func aMerchantAPIRequestNamesItsMerchantAndARefusedOneNone() throws {
        let host = try base.host("EU")
        let merchant = try #require(EnvironmentHostTests.merchants.region("EU")?.merchants.first)
        let served = host.respond(
            to: Request(method: "GET", path: "/merchant/v1/terminals", headers: ["authorization": "Bearer \(merchant.apiKey)"]))
        #expect(served.status == 200)
        let refused = host.respond(
            to: Request(method: "GET", path: "/merchant/v1/terminals", headers: ["authorization": "Bearer sk_test_eu_wrong"]))
        #expect(refused.status == 401)

        let journal = try entries(host, surface: "merchant")
        #expect(journal.count == 2, "\(journal)")
        // Newest first: the refusal acted for nobody, the served request for the key's merchant.
        #expect(journal.first?["status"] as? Int == 401 && journal.first?["subject"] is NSNull, "\(journal)")
        #expect(journal.last?["status"] as? Int == 200 && journal.last?["subject"] as? String == merchant.id, "\(journal)")
    }
}
