/// A small valid catalogue that the broken-document tests mutate one edit at a time.
///
/// Every line is unique, so a mutation can name the exact text it changes.
enum MinimalCatalogue {
    static let document = """
    {
      "regions": [
        {
          "id": "EU",
          "name": "Test EU",
          "country": "BE",
          "currency": "EUR",
          "languages": ["english", "dutch"],
          "supportPhone": null,
          "flavours": {
            "uat": { "hostname": null, "sdkEnvironment": "uatEU", "sessionLengthSeconds": 600 },
            "sandbox": { "hostname": "sandbox.example.eu", "sdkEnvironment": "sandboxEU", "sessionLengthSeconds": 600 },
            "pre": { "hostname": "pre.example.eu", "sdkEnvironment": "preEU", "sessionLengthSeconds": 28800 },
            "prod": { "hostname": "prod.example.eu", "sdkEnvironment": "prodEU", "sessionLengthSeconds": 28800 }
          },
          "limits": { "maxTransactionAmount": 1000000, "maxTipAmount": 10000, "maxTipPercentage": 20 },
          "apms": ["ALIPAY"],
          "blik": false,
          "dcc": true,
          "tips": true,
          "refunds": true,
          "reversals": true
        },
        {
          "id": "MBANK",
          "name": "Test mBank",
          "country": "PL",
          "currency": "PLN",
          "languages": ["english", "polish"],
          "supportPhone": "+48 00 000 00 00",
          "flavours": {
            "uat": { "hostname": null, "sdkEnvironment": "uatMBANK", "sessionLengthSeconds": 300 },
            "sandbox": { "hostname": "sandbox.example.pl", "sdkEnvironment": "sandboxMBANK", "sessionLengthSeconds": 300 },
            "pre": { "hostname": "pre.example.pl", "sdkEnvironment": "preMBANK", "sessionLengthSeconds": 3600 },
            "prod": { "hostname": "prod.example.pl", "sdkEnvironment": "prodMBANK", "sessionLengthSeconds": 3600 }
          },
          "limits": { "maxTransactionAmount": 4000000, "maxTipAmount": null, "maxTipPercentage": null },
          "apms": [],
          "blik": true,
          "dcc": false,
          "tips": false,
          "refunds": false,
          "reversals": true
        }
      ]
    }
    """
}
