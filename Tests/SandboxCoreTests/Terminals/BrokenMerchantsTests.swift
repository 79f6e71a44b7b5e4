import Foundation
import SandboxCore
import Testing

/// One edit that breaks ``MinimalMerchants/document``, and the one line the loader must answer.
struct BrokenMerchants: Sendable, CustomTestStringConvertible {
    enum Edit: Sendable {
        /// Replace text that occurs exactly once.
        case text(String, String)
        /// Use this document instead.
        case document(String)
        /// Change the parsed document (for edits that span lines).
        case object(@Sendable (inout [String: Any]) -> Void)
    }

    let edit: Edit
    let message: String

    var testDescription: String { message }

    init(_ original: String, _ replacement: String, _ message: String) {
        edit = .text(original, replacement)
        self.message = message
    }

    init(document: String, _ message: String) {
        edit = .document(document)
        self.message = message
    }

    init(_ message: String, editing change: @escaping @Sendable (inout [String: Any]) -> Void) {
        edit = .object(change)
        self.message = message
    }

    func apply() throws -> Data {
        let document = MinimalMerchants.document
        switch edit {
        case .document(let text):
            return Data(text.utf8)
        case .text(let original, let replacement):
            #expect(document.components(separatedBy: original).count == 2, "mutation target must occur once: \(original)")
            let range = try #require(document.range(of: original), "mutation target not in the minimal document: \(original)")
            return Data(document.replacingCharacters(in: range, with: replacement).utf8)
        case .object(let change):
            var object = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
            change(&object)
            return try JSONSerialization.data(withJSONObject: object)
        }
    }
}

/// Edits the parsed minimal document at a path of keys and indexes.
private func edit(_ object: inout [String: Any], _ path: [Any], _ change: (inout Any) -> Void) {
    func walk(_ value: inout Any, _ rest: ArraySlice<Any>) {
        guard let step = rest.first else { return change(&value) }
        if let key = step as? String, var dictionary = value as? [String: Any], var inner = dictionary[key] {
            walk(&inner, rest.dropFirst())
            dictionary[key] = inner
            value = dictionary
        } else if let index = step as? Int, var array = value as? [Any] {
            walk(&array[index], rest.dropFirst())
            value = array
        }
    }
    var root: Any = object
    walk(&root, path[...])
    object = root as! [String: Any]
}

@Suite struct BrokenMerchantsTests {
    let environments: EnvironmentCatalogue

    init() throws {
        environments = try FixtureTestRegions.catalogue()
    }

    @Test func theMinimalDocumentIsValid() throws {
        let catalogue = try MerchantCatalogue.decode(Data(MinimalMerchants.document.utf8), environments: environments)
        let eu = try #require(catalogue.region("EU"))
        #expect(eu.backOfficeKey == "bo_test_eu_000000000000000000000001")
        let terminal = try #require(eu.terminal("EU-T0101")?.terminal)
        #expect(terminal.tips == .init(enabled: true, rates: [5, 10, 15], maxAmount: 5000, maxPercentage: 15))
        #expect(terminal.apm.brands == [.init(brandName: "ALIPAY", brandFullName: "Alipay+", customId: "alipay-test", isActive: true)])
        #expect(terminal.dynamicProperties.phone == "+32 000 000 0101")
        // What may be null may be left out.
        let blik = try #require(catalogue.region("MBANK")?.terminal("MBANK-T0101"))
        #expect(blik.merchant.email == nil)
        #expect(blik.merchant.address2 == "")
        #expect(blik.terminal.permittedCountries == nil)
        #expect(blik.terminal.dynamicProperties == .init(blikTimeout: 120, blikPulling: 3))
    }

    static let terminal = "merchants.json: regions.EU.merchants[0].terminals[0]"
    static let blikTerminal = "merchants.json: regions.MBANK.merchants[0].terminals[0]"

    static let cases: [BrokenMerchants] = [
        // The document and its regions.
        .init(document: "[]", "merchants.json: (root): expected an object"),
        .init(document: "{}", "merchants.json: regions: missing"),
        .init(document: #"{"regions": []}"#, "merchants.json: regions: expected an object"),
        .init(document: #"{"regions": null}"#, "merchants.json: regions: expected an object, found null"),
        .init(#""regions": {"#, #""comment": "x", "regions": {"#,
              "merchants.json: comment: unknown field (expected one of regions)"),
        .init(#""MBANK": {"#, #""MBANK_PL": {"#, "merchants.json: regions.MBANK_PL: unknown region (expected one of EU, MBANK)"),
        .init(#""EU": {"#, #""eu": {"#, "merchants.json: regions.eu: unknown region (expected one of EU, MBANK)"),
        .init(#""MBANK": {"#, #""MBANK": null, "X": {"#, "merchants.json: regions.X: unknown region (expected one of EU, MBANK)"),
        .init(#""backOfficeKey": "bo_test_mbank_000000000000000000000001","#, "",
              "merchants.json: regions.MBANK.backOfficeKey: missing"),
        .init(#""bo_test_eu_000000000000000000000001""#, #""bo eu""#,
              #"merchants.json: regions.EU.backOfficeKey: "bo eu" is not a key (8 to 128 letters, digits, "-" and "_")"#),
        .init(#""bo_test_mbank_000000000000000000000001""#, #""bo_test_eu_000000000000000000000001""#,
              #"merchants.json: regions.MBANK.backOfficeKey: key "bo_test_eu_000000000000000000000001" is already used at merchants.json: regions.EU.backOfficeKey"#),
        .init("merchants.json: regions.MBANK.merchants: must list at least one merchant") { object in
            edit(&object, ["regions", "MBANK", "merchants"]) { $0 = [Any]() }
        },

        // Merchants.
        .init(#""id": "MBANK-M01""#, #""id": "EU-M01""#,
              #"merchants.json: regions.MBANK.merchants[0].id: merchant id "EU-M01" is already used at merchants.json: regions.EU.merchants[0].id"#),
        .init(#""id": "EU-M01""#, #""id": "EU M01""#,
              #"merchants.json: regions.EU.merchants[0].id: "EU M01" is not an id (1 to 64 letters, digits, "-" and "_")"#),
        .init(#""name": "Test Brasserie""#, #""name": " ""#, "merchants.json: regions.EU.merchants[0].name: must not be empty"),
        .init(#""address1": "ul. Testowa 1","#, "", "merchants.json: regions.MBANK.merchants[0].address1: missing"),
        .init(#""address2": "1000 Bruxelles""#, #""address3": "1000 Bruxelles""#,
              "merchants.json: regions.EU.merchants[0].address3: unknown field (expected one of id, name, address1, address2, email, apiKey, terminals)"),
        .init(#""owner@test-brasserie.example""#, #""owner""#,
              #"merchants.json: regions.EU.merchants[0].email: "owner" is not an e-mail address"#),
        .init(#""sk_test_mbank_000000000000000000000001""#, #""sk_test_eu_000000000000000000000001""#,
              #"merchants.json: regions.MBANK.merchants[0].apiKey: key "sk_test_eu_000000000000000000000001" is already used at merchants.json: regions.EU.merchants[0].apiKey"#),
        .init(#""sk_test_eu_000000000000000000000001""#, #""bo_test_eu_000000000000000000000001""#,
              #"merchants.json: regions.EU.merchants[0].apiKey: key "bo_test_eu_000000000000000000000001" is already used at merchants.json: regions.EU.backOfficeKey"#),
        .init(#""bo_test_mbank_000000000000000000000001""#, #""sk_test_eu_000000000000000000000001""#,
              #"merchants.json: regions.MBANK.backOfficeKey: key "sk_test_eu_000000000000000000000001" is already used at merchants.json: regions.EU.merchants[0].apiKey"#),
        .init(#""sk_test_eu_000000000000000000000001""#, #""sk""#,
              #"merchants.json: regions.EU.merchants[0].apiKey: "sk" is not a key (8 to 128 letters, digits, "-" and "_")"#),
        .init("merchants.json: regions.MBANK.merchants[0].terminals: must list at least one terminal") { object in
            edit(&object, ["regions", "MBANK", "merchants", 0, "terminals"]) { $0 = [Any]() }
        },
        .init("merchants.json: regions.MBANK.merchants[0].terminals[0]: expected an object, found null") { object in
            edit(&object, ["regions", "MBANK", "merchants", 0, "terminals", 0]) { $0 = NSNull() }
        },

        // Terminal identity, limits and login.
        .init(#""id": "MBANK-T0101""#, #""id": "EU-T0101""#,
              #"\#(blikTerminal).id: terminal id "EU-T0101" is already used at merchants.json: regions.EU.merchants[0].terminals[0].id"#),
        .init(#""profileId": "prf_test_counter""#, #""profileId": """#, "\(terminal).profileId: must not be empty"),
        .init(#""limitAmount": 1000000,"#, #""limitAmount": 1000001,"#,
              "\(terminal).limitAmount: must not exceed the region's maximum 1000000"),
        .init(#""limitAmount": 20000,"#, #""limitAmount": 4000001,"#,
              "\(blikTerminal).limitAmount: must not exceed the region's maximum 4000000"),
        .init(#""limitAmount": 20000,"#, #""limitAmount": 0,"#, "\(blikTerminal).limitAmount: must be a positive amount in minor units"),
        .init(#""limitAmount": 20000,"#, #""limitAmount": 12.5,"#, "\(blikTerminal).limitAmount: expected a whole number"),
        .init(#""limitAmount": 20000,"#, #""limitAmount": "20000","#, "\(blikTerminal).limitAmount: expected a number"),
        .init(#""autoLogin": false,"#, #""autoLogin": "no","#, "\(blikTerminal).autoLogin: expected a boolean"),
        .init(#""autoLogin": true,"#, #""autologin": true,"#,
              "\(terminal).autologin: unknown field (expected one of id, profileId, refundAvailable, reversalAvailable, limitAmount, permittedCountries, tips, reference, autoLogin, registerOptions, apm, blikEnabled, terminalCode, dynamicProperties)"),
        .init(#""refundAvailable": false,"#, "", "\(blikTerminal).refundAvailable: missing"),

        // Countries.
        .init(#"["BE", "NL"]"#, #"["BE", "XX"]"#, #"\#(terminal).permittedCountries[1]: "XX" is not an ISO 3166-1 alpha-2 country code"#),
        .init(#"["BE", "NL"]"#, #"["BE", "be"]"#, #"\#(terminal).permittedCountries[1]: "be" is not an ISO 3166-1 alpha-2 country code"#),
        .init(#"["BE", "NL"]"#, #"["BE", "BE"]"#, #"\#(terminal).permittedCountries[1]: "BE" is listed twice"#),
        .init(#"["BE", "NL"]"#, "[]", "\(terminal).permittedCountries: must list at least one country, or be null for anywhere"),

        // Tips.
        .init(#""tips": { "enabled": false, "rates": [], "maxAmount": null, "maxPercentage": null }"#,
              #""tips": { "enabled": true, "rates": [5], "maxAmount": null, "maxPercentage": null }"#,
              "\(blikTerminal).tips.enabled: must be false: region MBANK does not offer tips"),
        .init(#""tips": { "enabled": false, "rates": [], "maxAmount": null, "maxPercentage": null },"#, "",
              "\(blikTerminal).tips: missing"),
        .init(#""tips": { "enabled": false, "rates": [], "maxAmount": null, "maxPercentage": null }"#, #""tips": null"#,
              "\(blikTerminal).tips: expected an object, found null"),
        .init(#""tips": { "enabled": false, "rates": [], "maxAmount": null, "maxPercentage": null }"#, #""tips": true"#,
              "\(blikTerminal).tips: expected an object"),
        .init(#""rates": [5, 10, 15]"#, #""rates": [5, 0, 15]"#, "\(terminal).tips.rates[1]: must be a whole percentage from 1 to 100"),
        .init(#""rates": [5, 10, 15]"#, #""rates": [5, 10, 101]"#, "\(terminal).tips.rates[2]: must be a whole percentage from 1 to 100"),
        .init(#""rates": [5, 10, 15]"#, #""rates": [5, 7.5, 15]"#, "\(terminal).tips.rates[1]: must be a whole percentage from 1 to 100"),
        .init(#""rates": [5, 10, 15]"#, #""rates": [5, 10, 10]"#, "\(terminal).tips.rates[2]: 10 is listed twice"),
        .init(#""rates": [5, 10, 15]"#, #""rates": [5, 10, 16]"#, "\(terminal).tips.rates[2]: 16 is above the tip percentage cap 15"),
        .init(#""maxAmount": 5000"#, #""maxAmount": 10001"#, "\(terminal).tips.maxAmount: must not exceed the region's maximum tip 10000"),
        .init(#""maxAmount": 5000"#, #""maxAmount": 0"#, "\(terminal).tips.maxAmount: must be a positive amount in minor units or null"),
        .init(#""maxPercentage": 15"#, #""maxPercentage": 25"#,
              "\(terminal).tips.maxPercentage: must not exceed the region's maximum tip percentage 20"),
        .init(#""maxPercentage": 15"#, #""maxPercentage": 0"#,
              "\(terminal).tips.maxPercentage: must be a percentage above 0 and at most 100, or null"),
        .init(#""maxPercentage": 15"#, #""maxPercentage": 150"#,
              "\(terminal).tips.maxPercentage: must be a percentage above 0 and at most 100, or null"),
        .init(#""rates": [], "maxAmount": null"#, #""rates": [5], "maxAmount": null"#,
              "\(blikTerminal).tips.rates: must be empty when tips are disabled"),
        .init(#""rates": [], "maxAmount": null"#, #""rates": [], "maxAmount": 100"#,
              "\(blikTerminal).tips.maxAmount: must be null when tips are disabled"),
        .init(#""maxPercentage": 15 }"#, #""maxPercentage": 15, "step": 5 }"#,
              "\(terminal).tips.step: unknown field (expected one of enabled, rates, maxAmount, maxPercentage)"),

        // Reference.
        .init(#""^INV-[0-9]{6}$""#, #""^INV-[0-9""#, #"\#(terminal).reference.pattern: "^INV-[0-9" is not a valid regular expression"#),
        .init(#""^INV-[0-9]{6}$""#, #""""#, "\(terminal).reference.pattern: must not be empty; write null to accept any reference"),
        .init(#"{ "enabled": false, "pattern": null }"#, #"{ "enabled": false, "pattern": "^x$" }"#,
              "\(blikTerminal).reference.pattern: must be null when the reference is disabled"),

        // Registration.
        .init(#"["registrationCode"]"#, "[]", "\(blikTerminal).registerOptions: must list at least one of portal, registrationCode"),
        .init(#"["registrationCode"]"#, #"["registrationCode", "qr"]"#,
              #"\#(blikTerminal).registerOptions[1]: "qr" is not a register option (one of portal, registrationCode)"#),
        .init(#"["registrationCode"]"#, #"["registrationCode", "registrationCode"]"#,
              #"\#(blikTerminal).registerOptions[1]: "registrationCode" is listed twice"#),

        // APMs.
        .init(#""brandName": "ALIPAY""#, #""brandName": "PAYCONIQ""#,
              #"\#(terminal).apm.brands[0].brandName: "PAYCONIQ" is not an APM of region EU (one of ALIPAY, WECHATPAY)"#),
        .init(#""brandName": "ALIPAY""#, #""brandName": "Alipay""#,
              #"\#(terminal).apm.brands[0].brandName: "Alipay" is not an APM brand name (upper-case letters, digits and underscores, e.g. ALIPAY)"#),
        .init(#"{ "enabled": false, "brands": [] }"#, #"{ "enabled": true, "brands": [] }"#,
              "\(blikTerminal).apm.enabled: must be false: region MBANK offers no APMs"),
        .init(#"{ "enabled": false, "brands": [] }"#,
              #"{ "enabled": false, "brands": [{ "brandName": "ALIPAY", "isActive": false }] }"#,
              #"\#(blikTerminal).apm.brands[0].brandName: "ALIPAY" is not an APM of region MBANK (it offers none)"#),
        .init(#""customId": "alipay-test", "isActive": true }"#,
              #""customId": "alipay-test", "isActive": true }, { "brandName": "ALIPAY", "isActive": false }"#,
              #"\#(terminal).apm.brands[1].brandName: "ALIPAY" is listed twice"#),
        .init(#""customId": "alipay-test", "isActive": true }"#, #""customId": "alipay-test" }"#,
              "\(terminal).apm.brands[0].isActive: missing"),
        .init("\(terminal).apm.brands: must list at least one brand when APMs are enabled") { object in
            edit(&object, ["regions", "EU", "merchants", 0, "terminals", 0, "apm", "brands"]) { $0 = [Any]() }
        },

        // BLIK and terminal code.
        .init(#""blikEnabled": null,"#, #""blikEnabled": true,"#, "\(terminal).blikEnabled: must be false or null: region EU does not offer BLIK"),
        .init(#""blikEnabled": true,"#, #""blikEnabled": "yes","#, "\(blikTerminal).blikEnabled: expected a boolean"),
        .init(#""terminalCode": "4821""#, #""terminalCode": "48a1""#, #"\#(terminal).terminalCode: "48a1" is not a terminal code (4 to 6 digits)"#),
        .init(#""terminalCode": "4821""#, #""terminalCode": "482""#, #"\#(terminal).terminalCode: "482" is not a terminal code (4 to 6 digits)"#),
        .init(#""terminalCode": "4821""#, #""terminalCode": "4821000""#,
              #"\#(terminal).terminalCode: "4821000" is not a terminal code (4 to 6 digits)"#),
        .init(#""terminalCode": "4821""#, #""terminalCode": 4821"#, "\(terminal).terminalCode: expected a string"),

        // Dynamic properties.
        .init(#""https://test-brasserie.example/privacy""#, #""test-brasserie.example/privacy""#,
              #"\#(terminal).dynamicProperties.privacyPolicyUrl: "test-brasserie.example/privacy" is not an http or https URL"#),
        .init(#""support@test-brasserie.example""#, #""support""#,
              #"\#(terminal).dynamicProperties.email: "support" is not an e-mail address"#),
        .init(#""+32 000 000 0101""#, #""0032 000""#,
              #"\#(terminal).dynamicProperties.phone: "0032 000" is not an international phone number (+, then digits and spaces)"#),
        .init(#""apmTimeout": 300,"#, #""apmTimeout": 0,"#,
              "\(terminal).dynamicProperties.apmTimeout: must be a positive number of seconds or null"),
        .init(#""blikPulling": 3"#, #""blikPulling": 2.5"#, "\(blikTerminal).dynamicProperties.blikPulling: expected a whole number"),
        .init(#""blikPulling": null"#, #""blikPolling": null"#,
              "\(terminal).dynamicProperties.blikPolling: unknown field (expected one of privacyPolicyUrl, cookiesPolicyUrl, userAgreementUrl, email, whatsapp, phone, apmTimeout, apmPulling, apmRefundTimeout, blikTimeout, blikPulling)"),
    ]

    @Test(arguments: cases)
    func refusesWithOneExactLine(_ broken: BrokenMerchants) throws {
        let data = try broken.apply()
        let error = #expect(throws: CatalogueError.self) {
            try MerchantCatalogue.decode(data, environments: environments)
        }
        #expect(error?.description == broken.message)
    }

    @Test func requiresEveryRegionOfTheCatalogue() throws {
        var environments = environments
        var extra = environments.regions[0]
        extra.id = "CAWL"
        environments.regions.append(extra)
        let error = #expect(throws: CatalogueError.self) {
            try MerchantCatalogue.decode(Data(MinimalMerchants.document.utf8), environments: environments)
        }
        #expect(error?.description == "merchants.json: regions.CAWL: missing")
        #expect(error?.code == .missing)
    }

    @Test func refusesTextThatIsNotJSON() throws {
        let truncated = String(MinimalMerchants.document.dropLast())
        let error = #expect(throws: CatalogueError.self) {
            try MerchantCatalogue.decode(Data(truncated.utf8), environments: environments)
        }
        #expect(error?.code == .notJSON)
        #expect(error?.description.hasPrefix("merchants.json: (root): not valid JSON: ") == true)
    }

    @Test func namesTheFileItWasGiven() throws {
        let error = #expect(throws: CatalogueError.self) {
            try MerchantCatalogue.decode(Data("{}".utf8), file: "fixtures.json", environments: environments)
        }
        #expect(error?.description == "fixtures.json: regions: missing")
    }
}
