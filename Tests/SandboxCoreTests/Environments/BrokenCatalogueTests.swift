import Foundation
import SandboxCore
import Testing

/// One edit that breaks the minimal catalogue, and the one line the loader must answer.
struct BrokenCatalogue: Sendable, CustomTestStringConvertible {
    /// Text of ``MinimalCatalogue/document`` to replace (nil: replace the whole document).
    let original: String?
    let replacement: String
    let message: String

    var testDescription: String { message }

    /// Replaces `original`, which must occur in the minimal document.
    init(_ original: String, _ replacement: String, _ message: String) {
        self.original = original
        self.replacement = replacement
        self.message = message
    }

    /// Uses `document` instead of the minimal document.
    init(document: String, _ message: String) {
        original = nil
        replacement = document
        self.message = message
    }

    func apply() throws -> Data {
        guard let original else { return Data(replacement.utf8) }
        let document = MinimalCatalogue.document
        let range = try #require(document.range(of: original), "mutation target not in the minimal document: \(original)")
        return Data(document.replacingCharacters(in: range, with: replacement).utf8)
    }
}

@Suite struct BrokenCatalogueTests {
    @Test func theMinimalDocumentIsValid() throws {
        let catalogue = try EnvironmentCatalogue.decode(Data(MinimalCatalogue.document.utf8), file: "environments.json")
        #expect(catalogue.regions.map(\.id) == ["EU", "MBANK"])
        #expect(catalogue.regions[1].flavours.sandbox.sessionLengthSeconds == 300)
        #expect(catalogue.regions[1].supportPhone == "+48 00 000 00 00")
        #expect(catalogue.regions[1].limits.maxTipAmount == nil)
        #expect(catalogue.regions[1].features.refunds == false)
    }

    static let cases: [BrokenCatalogue] = [
        // The document as a whole.
        .init(document: "[]", "environments.json: (root): expected an object"),
        .init(document: "{}", "environments.json: regions: missing"),
        .init(document: #"{"regions": []}"#, "environments.json: regions: must list at least one region"),
        .init(document: #"{"regions": {}}"#, "environments.json: regions: expected a list"),
        .init(document: #"{"regions": [3]}"#, "environments.json: regions[0]: expected an object"),
        .init(#""regions": ["#, #""comment": "x", "regions": ["#,
              "environments.json: comment: unknown field (expected one of regions)"),

        // Identity.
        .init(#""id": "MBANK""#, #""id": "EU""#, #"environments.json: regions[1].id: duplicate region id "EU""#),
        .init(#""id": "EU""#, #""id": "eu""#,
              #"environments.json: regions[0].id: "eu" is not a region id (upper-case letters, digits and underscores, e.g. PAYONE_DE)"#),
        .init(#""name": "Test EU""#, #""name": " ""#, "environments.json: regions[0].name: must not be empty"),
        .init(
            #""name": "Test EU""#, #""name": "Test EU", "vendor": "adyen""#,
            #"environments.json: regions[0].vendor: "adyen" is not a vendor (worldline, monei, pagbank, geopagos)"#),
        .init(#""country": "PL","#, "", "environments.json: regions[1].country: missing"),
        .init(#""country": "BE""#, #""country": "EU""#,
              #"environments.json: regions[0].country: "EU" is not an ISO 3166-1 alpha-2 country code"#),

        // Currency.
        .init(#""currency": "EUR""#, #""currency": "EURO""#,
              #"environments.json: regions[0].currency: "EURO" is not an ISO 4217 currency code"#),
        .init(#""currency": "PLN""#, #""currency": 985"#, "environments.json: regions[1].currency: expected a string"),
        .init(#""currency": "EUR""#, #""currency": null"#, "environments.json: regions[0].currency: expected a string, found null"),

        // Languages.
        .init(#"["english", "dutch"]"#, #"["english", "klingon"]"#,
              #"environments.json: regions[0].languages[1]: "klingon" is not a supported language (one of english, dutch, french, german, italian, czech, polish, hungarian, slovak, slovenian, croatian)"#),
        .init(#"["english", "polish"]"#, #"["english", "polish", "polish"]"#,
              #"environments.json: regions[1].languages[2]: "polish" is listed twice"#),
        .init(#"["english", "polish"]"#, #"["polish"]"#,
              "environments.json: regions[1].languages: must include english, the SDK's fallback language"),
        .init(#""supportPhone": "+48 00 000 00 00""#, #""supportPhone": "call us""#,
              #"environments.json: regions[1].supportPhone: "call us" is not an international phone number (+, then digits and spaces)"#),

        // Flavours.
        .init(#""prod": { "hostname": "prod.example.eu", "sdkEnvironment": "prodEU", "sessionLengthSeconds": 28800 }"#,
              #""beta": { "hostname": "prod.example.eu", "sdkEnvironment": "prodEU", "sessionLengthSeconds": 28800 }"#,
              "environments.json: regions[0].flavours.beta: unknown field (expected one of uat, sandbox, pre, prod)"),
        .init(#"""
                "pre": { "hostname": "pre.example.pl", "sdkEnvironment": "preMBANK", "sessionLengthSeconds": 3600 },
              """#, "", "environments.json: regions[1].flavours.pre: missing"),
        .init(#""prodEU", "sessionLengthSeconds": 28800"#, #""prodEU", "sessionLengthSeconds": 0"#,
              "environments.json: regions[0].flavours.prod.sessionLengthSeconds: must be a positive number of seconds"),
        .init(#""sandboxMBANK", "sessionLengthSeconds": 300"#, #""sandboxMBANK", "sessionLengthSeconds": -300"#,
              "environments.json: regions[1].flavours.sandbox.sessionLengthSeconds: must be a positive number of seconds"),
        .init(#""uatEU", "sessionLengthSeconds": 600"#, #""uatEU", "sessionLengthSeconds": 1.5"#,
              "environments.json: regions[0].flavours.uat.sessionLengthSeconds: expected a whole number"),
        .init(#""uatEU", "sessionLengthSeconds": 600"#, #""uatEU", "sessionLengthSeconds": "600""#,
              "environments.json: regions[0].flavours.uat.sessionLengthSeconds: expected a number"),
        .init(#""sdkEnvironment": "prodEU""#, #""sdkEnvironment": "sandboxEU""#,
              #"environments.json: regions[0].flavours.prod.sdkEnvironment: "sandboxEU" is not an Environments case name for prod (expected prod followed by the region, e.g. prodEU)"#),
        .init(#"{ "hostname": null, "sdkEnvironment": "uatEU""#, #"{ "sdkEnvironment": "uatEU""#,
              "environments.json: regions[0].flavours.uat.hostname: missing"),
        .init(#""sandbox.example.eu""#, #""sandbox_eu.example.eu""#,
              #"environments.json: regions[0].flavours.sandbox.hostname: "sandbox_eu.example.eu" is not a valid DNS name: label "sandbox_eu" may hold only letters, digits and hyphens"#),
        .init(#""prod.example.pl""#, #""https://prod.example.pl""#,
              #"environments.json: regions[1].flavours.prod.hostname: "https://prod.example.pl" is not a valid DNS name: label "https://prod" may hold only letters, digits and hyphens"#),
        .init(#""pre.example.eu""#, #""pre..example.eu""#,
              #"environments.json: regions[0].flavours.pre.hostname: "pre..example.eu" is not a valid DNS name: it has an empty label"#),
        .init(#""pre.example.eu""#, #""pre-.example.eu""#,
              #"environments.json: regions[0].flavours.pre.hostname: "pre-.example.eu" is not a valid DNS name: label "pre-" starts or ends with a hyphen"#),
        .init(#""pre.example.eu""#, #""""#,
              #"environments.json: regions[0].flavours.pre.hostname: "" is not a valid DNS name: it is empty"#),

        // Limits.
        .init(#""maxTransactionAmount": 1000000"#, #""maxTransactionAmount": 0"#,
              "environments.json: regions[0].limits.maxTransactionAmount: must be a positive amount in minor units"),
        .init(#""maxTransactionAmount": 4000000, "#, "", "environments.json: regions[1].limits.maxTransactionAmount: missing"),
        .init(#""maxTipPercentage": 20"#, #""maxTipPercentage": 150"#,
              "environments.json: regions[0].limits.maxTipPercentage: must be a percentage above 0 and at most 100, or null"),
        .init(#""maxTipAmount": 10000"#, #""maxTipAmount": -1"#,
              "environments.json: regions[0].limits.maxTipAmount: must be a positive amount in minor units or null"),

        // Feature switches.
        .init(#""dcc": true"#, #""dcc": "yes""#, "environments.json: regions[0].dcc: expected a boolean"),
        .init(#""tips": true,"#, "", "environments.json: regions[0].tips: missing"),
        .init(#""tips": true"#, #""tip": true"#,
              "environments.json: regions[0].tip: unknown field (expected one of id, name, vendor, country, currency, languages, supportPhone, flavours, limits, apms, blik, dcc, tips, refunds, reversals)"),
        .init(#""apms": ["ALIPAY"]"#, #""apms": "ALIPAY""#, "environments.json: regions[0].apms: expected a list"),
        .init(#""apms": ["ALIPAY"]"#, #""apms": ["ALIPAY", "BLIK"]"#,
              #"environments.json: regions[0].apms[1]: BLIK is not a QR wallet; switch it with "blik""#),
        .init(#""apms": ["ALIPAY"]"#, #""apms": ["ALIPAY", "AliPay"]"#,
              #"environments.json: regions[0].apms[1]: "AliPay" is not an APM brand name (upper-case letters, digits and underscores, e.g. ALIPAY)"#),
        .init(#""apms": ["ALIPAY"]"#, #""apms": ["ALIPAY", "ALIPAY"]"#,
              #"environments.json: regions[0].apms[1]: "ALIPAY" is listed twice"#),
        .init(#""blik": false"#, #""blik": true"#,
              "environments.json: regions[0].blik: BLIK pays in PLN only, but this region's currency is EUR"),
    ]

    @Test(arguments: cases)
    func refusesWithOneExactLine(_ broken: BrokenCatalogue) throws {
        let data = try broken.apply()
        let error = #expect(throws: CatalogueError.self) {
            try EnvironmentCatalogue.decode(data, file: "environments.json")
        }
        #expect(error?.description == broken.message)
    }

    @Test func refusesTextThatIsNotJSON() throws {
        let truncated = String(MinimalCatalogue.document.dropLast())
        let error = #expect(throws: CatalogueError.self) {
            try EnvironmentCatalogue.decode(Data(truncated.utf8), file: "environments.json")
        }
        #expect(error?.code == .notJSON)
        #expect(error?.description.hasPrefix("environments.json: (root): not valid JSON: ") == true)
        #if os(Linux)
        #expect(error?.description == "environments.json: (root): not valid JSON: unexpected end of file")
        #endif
    }

    @Test func saysWhereTheJSONBreaks() throws {
        let broken = MinimalCatalogue.document.replacingOccurrences(of: #""dcc": true,"#, with: #""dcc": tru,"#)
        let error = #expect(throws: CatalogueError.self) {
            try EnvironmentCatalogue.decode(Data(broken.utf8), file: "environments.json")
        }
        #expect(error?.code == .notJSON)
        #if os(Linux)
        #expect(error?.description == "environments.json: (root): not valid JSON: invalid value at line 19, column 17")
        #endif
    }

    @Test func classifiesEachKindOfProblem() throws {
        func code(_ broken: BrokenCatalogue) throws -> CatalogueError.Code? {
            let data = try broken.apply()
            do {
                _ = try EnvironmentCatalogue.decode(data, file: "environments.json")
                return nil
            } catch {
                return error.code
            }
        }
        #expect(try code(.init(document: "{}", "")) == .missing)
        #expect(try code(.init(#""dcc": true"#, #""dcc": 1"#, "")) == .wrongType)
        #expect(try code(.init(#""currency": "EUR""#, #""currency": "EURO""#, "")) == .invalid)
        #expect(try code(.init(document: "{", "")) == .notJSON)
    }
}
