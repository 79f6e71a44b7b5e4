import Foundation
import SandboxCore
import SandboxTestSupport

/// The shipped data directory, `sandbox-data/` in this checkout.
let shippedDataDirectory = Paths.sandboxData

/// Two small regions the fixture tests check against: EU (tips capped at 100.00 and 20 %,
/// Alipay and WeChat Pay, no BLIK) and MBANK (BLIK, no tips, no APMs).
enum FixtureTestRegions {
    static let document = """
    {
      "regions": [
        {
          "id": "EU", "name": "Test EU", "country": "BE", "currency": "EUR", "languages": ["english"], "supportPhone": null,
          "flavours": {
            "uat": { "hostname": null, "sdkEnvironment": "uatEU", "sessionLengthSeconds": 600 },
            "sandbox": { "hostname": null, "sdkEnvironment": "sandboxEU", "sessionLengthSeconds": 600 },
            "pre": { "hostname": null, "sdkEnvironment": "preEU", "sessionLengthSeconds": 28800 },
            "prod": { "hostname": null, "sdkEnvironment": "prodEU", "sessionLengthSeconds": 28800 }
          },
          "limits": { "maxTransactionAmount": 1000000, "maxTipAmount": 10000, "maxTipPercentage": 20 },
          "apms": ["ALIPAY", "WECHATPAY"], "blik": false, "dcc": true, "tips": true, "refunds": true, "reversals": true
        },
        {
          "id": "MBANK", "name": "Test mBank", "country": "PL", "currency": "PLN", "languages": ["english"], "supportPhone": null,
          "flavours": {
            "uat": { "hostname": null, "sdkEnvironment": "uatMBANK", "sessionLengthSeconds": 600 },
            "sandbox": { "hostname": null, "sdkEnvironment": "sandboxMBANK", "sessionLengthSeconds": 600 },
            "pre": { "hostname": null, "sdkEnvironment": "preMBANK", "sessionLengthSeconds": 28800 },
            "prod": { "hostname": null, "sdkEnvironment": "prodMBANK", "sessionLengthSeconds": 28800 }
          },
          "limits": { "maxTransactionAmount": 4000000, "maxTipAmount": null, "maxTipPercentage": null },
          "apms": [], "blik": true, "dcc": false, "tips": false, "refunds": true, "reversals": true
        }
      ]
    }
    """

    static func catalogue() throws -> EnvironmentCatalogue {
        try EnvironmentCatalogue.decode(Data(document.utf8), file: "environments.json")
    }
}

/// A small valid `merchants.json` for ``FixtureTestRegions`` that broken-document tests
/// mutate one edit at a time. Each text a mutation names occurs exactly once.
///
/// The EU terminal sets every switch; the MBANK terminal leaves out what may be left out
/// (`permittedCountries`, most `dynamicProperties`).
enum MinimalMerchants {
    static let document = """
    {
      "regions": {
        "EU": {
          "backOfficeKey": "bo_test_eu_000000000000000000000001",
          "merchants": [
            {
              "id": "EU-M01",
              "name": "Test Brasserie",
              "address1": "Rue de Test 1",
              "address2": "1000 Bruxelles",
              "email": "owner@test-brasserie.example",
              "apiKey": "sk_test_eu_000000000000000000000001",
              "terminals": [
                {
                  "id": "EU-T0101",
                  "profileId": "prf_test_counter",
                  "refundAvailable": true,
                  "reversalAvailable": true,
                  "limitAmount": 1000000,
                  "permittedCountries": ["BE", "NL"],
                  "tips": { "enabled": true, "rates": [5, 10, 15], "maxAmount": 5000, "maxPercentage": 15 },
                  "reference": { "enabled": true, "pattern": "^INV-[0-9]{6}$" },
                  "autoLogin": true,
                  "registerOptions": ["portal", "registrationCode"],
                  "apm": { "enabled": true, "brands": [
                    { "brandName": "ALIPAY", "brandFullName": "Alipay+", "customId": "alipay-test", "isActive": true }
                  ] },
                  "blikEnabled": null,
                  "terminalCode": "4821",
                  "dynamicProperties": {
                    "privacyPolicyUrl": "https://test-brasserie.example/privacy",
                    "cookiesPolicyUrl": null,
                    "userAgreementUrl": null,
                    "email": "support@test-brasserie.example",
                    "whatsapp": null,
                    "phone": "+32 000 000 0101",
                    "apmTimeout": 300,
                    "apmPulling": 5,
                    "apmRefundTimeout": 60,
                    "blikTimeout": null,
                    "blikPulling": null
                  }
                }
              ]
            }
          ]
        },
        "MBANK": {
          "backOfficeKey": "bo_test_mbank_000000000000000000000001",
          "merchants": [
            {
              "id": "MBANK-M01",
              "name": "Test Kawiarnia",
              "address1": "ul. Testowa 1",
              "address2": "",
              "email": null,
              "apiKey": "sk_test_mbank_000000000000000000000001",
              "terminals": [
                {
                  "id": "MBANK-T0101",
                  "profileId": "prf_test_blik",
                  "refundAvailable": false,
                  "reversalAvailable": false,
                  "limitAmount": 20000,
                  "tips": { "enabled": false, "rates": [], "maxAmount": null, "maxPercentage": null },
                  "reference": { "enabled": false, "pattern": null },
                  "autoLogin": false,
                  "registerOptions": ["registrationCode"],
                  "apm": { "enabled": false, "brands": [] },
                  "blikEnabled": true,
                  "terminalCode": null,
                  "dynamicProperties": { "blikTimeout": 120, "blikPulling": 3 }
                }
              ]
            }
          ]
        }
      }
    }
    """

    /// A local overlay adding one EU merchant with one terminal; `id`, `terminal` and `apiKey`
    /// may be changed to collide with others.
    static func overlay(
        merchant id: String = "EU-M90", terminal: String = "EU-T9001", apiKey: String = "sk_test_eu_local_000000000090",
        backOfficeKey: String? = nil
    ) -> String {
        let key = backOfficeKey.map { "\"backOfficeKey\": \"\($0)\"," } ?? ""
        return """
        {
          "regions": {
            "EU": {
              \(key)
              "merchants": [
                {
                  "id": "\(id)", "name": "My Test Shop", "address1": "Teststraat 9", "address2": "9000 Gent",
                  "apiKey": "\(apiKey)",
                  "terminals": [
                    {
                      "id": "\(terminal)", "profileId": "prf_local", "refundAvailable": true, "reversalAvailable": true,
                      "limitAmount": 2500,
                      "tips": { "enabled": false, "rates": [] },
                      "reference": { "enabled": false },
                      "autoLogin": true, "registerOptions": ["portal"],
                      "apm": { "enabled": false, "brands": [] }
                    }
                  ]
                }
              ]
            }
          }
        }
        """
    }
}
