@testable import EnvironmentHost
@testable import HostRules
import SandboxCrypto
import Testing

@Suite struct CredentialsTests {
    let credentials = Credentials(region: "PAYONE_DE", random: SeededRandomSource(seed: 7))

    @Test func challengeCodesAreReadableAndAcceptedAsTyped() throws {
        for _ in 0..<200 {
            let code = credentials.challengeCode()
            #expect(code.count == 9)
            #expect(Array(code)[4] == "-")
            #expect(code.allSatisfy { $0 == "-" || Credentials.challengeAlphabet.contains($0) })
            #expect(!code.contains { "01OIL".contains($0) })
            #expect(Credentials.normalizeChallenge(code) == code)
            #expect(Credentials.normalizeChallenge(code.lowercased().replacingOccurrences(of: "-", with: "")) == code)
        }
        #expect(Credentials.normalizeChallenge("ABCD-EFG0") == nil)
        #expect(Credentials.normalizeChallenge("ABCD-EF") == nil)
    }

    @Test func backOfficeCodesNameTheirRegion() throws {
        let code = credentials.backOfficeCode()
        let parsed = try #require(Credentials.parseBackOfficeCode(code))
        #expect(parsed.region == "PAYONE_DE")
        #expect(code.hasPrefix("PAYONE_DE-") && code.count == "PAYONE_DE-".count + 6)
        #expect(Credentials.parseBackOfficeCode("eu-123456")?.region == "EU")
        #expect(Credentials.parseBackOfficeCode("EU-12345") == nil)
        #expect(Credentials.parseBackOfficeCode("123456") == nil)
        #expect(Credentials.parseBackOfficeCode("EU-12345x") == nil)
    }

    @Test func registrationTokensNameTheirRegion() {
        let token = credentials.registrationToken()
        #expect(token.hasPrefix("rt_payone_de_"))
        #expect(Credentials.tokenRegion(token) == "PAYONE_DE")
        #expect(Credentials.tokenRegion("rt_eu_" + String(repeating: "a", count: 32)) == "EU")
        #expect(Credentials.tokenRegion("rt_eu_" + String(repeating: "a", count: 31)) == nil)
        #expect(Credentials.tokenRegion("token") == nil)
        #expect(Credentials.tokenRegion("rt__" + String(repeating: "a", count: 32)) == nil)
    }

    @Test func secretsAreComparedByHash() {
        let secret = credentials.secret(prefix: "ds_")
        #expect(secret.count == 3 + 64)
        #expect(Credentials.matches(secret, hash: Credentials.hash(secret)))
        #expect(!Credentials.matches(secret + "x", hash: Credentials.hash(secret)))
        let salt = credentials.salt()
        #expect(Credentials.pinMatches("1234", salt: salt, hash: Credentials.pinHash("1234", salt: salt)))
        #expect(!Credentials.pinMatches("1235", salt: salt, hash: Credentials.pinHash("1234", salt: salt)))
        // The same code under another salt hashes differently.
        #expect(Credentials.pinHash("1234", salt: salt) != Credentials.pinHash("1234", salt: credentials.salt()))
    }
}
