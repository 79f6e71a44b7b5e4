import Foundation
import SandboxCore
import SandboxWire
import Testing

/// `TerminalInfo` and `InfoInit` are what devices receive: the seed's models, field for field.
@Suite struct TerminalInfoTests {
    let environments: EnvironmentCatalogue
    let merchants: MerchantCatalogue

    init() throws {
        environments = try EnvironmentCatalogue.load(contentsOf: shippedDataDirectory.appendingPathComponent("environments.json"))
        let data = try Data(contentsOf: shippedDataDirectory.appendingPathComponent("merchants.json"))
        merchants = try MerchantCatalogue.decode(data, environments: environments)
    }

    func info(_ terminalID: String, region regionID: String) throws -> TerminalInfo {
        let region = try #require(environments.region(regionID))
        let found = try #require(merchants.region(regionID)?.terminal(terminalID))
        return TerminalInfo(terminal: found.terminal, merchant: found.merchant, region: region)
    }

    /// The model as a client in any language sees it.
    func json(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // The seed's property tables (TerminalInfo, Currency, DynamicProperties, APMConfig).
    static let terminalInfoKeys: Set<String> = [
        "terminalId", "merchantId", "merchantName", "address1", "address2", "isRefundAvailable", "isReversalAvailable",
        "currency", "limitAmount", "decimalDigitCount", "permittedCountries", "profileId", "dynamicProperties",
        "apmConfig", "apmEnabled", "tipEnabled", "maxTipAmount", "maxTipPercentage", "blikEnabled", "terminalCode",
    ]
    static let currencyKeys: Set<String> = ["code", "name", "unitLength", "isoCode", "exponent"]
    static let dynamicPropertiesKeys: Set<String> = [
        "privacyPolicyUrl", "cookiesPolicyUrl", "userAgreementUrl", "email", "whatsapp", "phone", "apmTimeout",
        "apmPulling", "apmRefundTimeout", "rates", "referencePattern", "referenceEnabled", "blikTimeout", "blikPulling",
    ]
    static let apmConfigKeys: Set<String> = ["brandName", "brandFullName", "customId", "isActive"]

    @Test(arguments: ["EU-T0101", "EU-T0203", "MBANK-T0102", "CAWL-T0103"])
    func hasExactlyTheSeedsKeysWithNullsWritten(terminalID: String) throws {
        let regionID = String(terminalID.prefix { $0 != "-" })
        let object = try json(info(terminalID, region: regionID))
        #expect(Set(object.keys) == Self.terminalInfoKeys)
        #expect(Set(try #require(object["currency"] as? [String: Any]).keys) == Self.currencyKeys)
        #expect(Set(try #require(object["dynamicProperties"] as? [String: Any]).keys) == Self.dynamicPropertiesKeys)
        for brand in try #require(object["apmConfig"] as? [[String: Any]]) {
            #expect(Set(brand.keys) == Self.apmConfigKeys)
        }
    }

    @Test func describesAFullyFeaturedEuroTerminal() throws {
        let object = try json(info("EU-T0101", region: "EU"))
        #expect(object["terminalId"] as? String == "EU-T0101")
        #expect(object["merchantId"] as? String == "EU-M01")
        #expect(object["merchantName"] as? String == "Brasserie Lumière")
        #expect(object["address1"] as? String == "Rue de la Montagne 14")
        #expect(object["address2"] as? String == "1000 Bruxelles")
        #expect(object["isRefundAvailable"] as? Bool == true)
        #expect(object["isReversalAvailable"] as? Bool == true)
        let currency = try #require(object["currency"] as? [String: Any])
        #expect(currency["code"] as? String == "EUR")
        #expect(currency["name"] as? String == "Euro")
        #expect(currency["isoCode"] as? Int == 978)
        #expect(currency["exponent"] as? Int == 2)
        #expect(currency["unitLength"] as? Int == 2)
        #expect(object["limitAmount"] as? Int == 1_000_000)
        #expect(object["decimalDigitCount"] as? Int == 2)
        #expect(object["permittedCountries"] is NSNull)
        #expect(object["profileId"] as? String == "prf_eu_counter")
        #expect(object["tipEnabled"] as? Bool == true)
        #expect(object["maxTipAmount"] as? Int == 5000)
        #expect(object["maxTipPercentage"] as? Double == 15)
        #expect(object["apmEnabled"] as? Bool == true)
        let brands = try #require(object["apmConfig"] as? [[String: Any]])
        #expect(brands.compactMap { $0["brandName"] as? String } == ["ALIPAY", "WECHATPAY", "PAYCONIQ"])
        #expect(brands.first?["brandFullName"] as? String == "Alipay+")
        #expect(brands.first?["customId"] as? String == "alipay-eu-m01")
        #expect(brands.first?["isActive"] as? Bool == true)
        #expect(object["blikEnabled"] is NSNull)
        #expect(object["terminalCode"] is NSNull)
        let properties = try #require(object["dynamicProperties"] as? [String: Any])
        #expect(properties["rates"] as? [Int] == [5, 10, 15])
        #expect(properties["referenceEnabled"] as? Bool == false)
        #expect(properties["referencePattern"] is NSNull)
        #expect(properties["apmTimeout"] as? Int == 300)
        #expect(properties["apmPulling"] as? Int == 5)
        #expect(properties["apmRefundTimeout"] as? Int == 60)
        #expect(properties["blikTimeout"] is NSNull)
        #expect(properties["privacyPolicyUrl"] as? String == "https://brasserie-lumiere.example/privacy")
        #expect(properties["email"] as? String == "support@brasserie-lumiere.example")
        #expect(properties["phone"] as? String == "+32 000 000 0101")
    }

    @Test func fillsTipCapsFromTheRegionWhenTheTerminalLeavesThemOpen() throws {
        let info = try info("EU-T0202", region: "EU")
        #expect(info.tipEnabled)
        #expect(info.maxTipAmount == 10_000)
        #expect(info.maxTipPercentage == 20)
        #expect(info.dynamicProperties.rates == [10, 15, 20])
        #expect(info.dynamicProperties.referenceEnabled)
        #expect(info.dynamicProperties.referencePattern == nil)
        #expect(info.limitAmount == 250_000)
        #expect(info.apmConfig.map(\.isActive) == [true, false])
    }

    @Test func describesATerminalWithoutTipsInARegionWithoutThem() throws {
        let info = try info("CAWL-T0102", region: "CAWL")
        #expect(!info.tipEnabled)
        #expect(info.maxTipAmount == nil)
        #expect(info.maxTipPercentage == nil)
        #expect(info.dynamicProperties.rates == [])
        #expect(!info.isRefundAvailable)
        #expect(info.isReversalAvailable)
        #expect(info.limitAmount == 5000)
        #expect(!info.apmEnabled)
        #expect(info.apmConfig.isEmpty)
        #expect(info.merchantName == "Boulangerie du Marché")
    }

    @Test func describesBLIKInZloty() throws {
        let info = try info("MBANK-T0101", region: "MBANK")
        #expect(info.blikEnabled == true)
        #expect(info.dynamicProperties.blikTimeout == 120)
        #expect(info.dynamicProperties.blikPulling == 3)
        #expect(info.currency == TerminalCurrency(code: "PLN", name: "Zloty", unitLength: 2, isoCode: 985, exponent: 2))
        #expect(try self.info("MBANK-T0202", region: "MBANK").blikEnabled == false)
    }

    @Test func carriesTheReferencePatternCountriesAndTerminalCode() throws {
        let invoice = try info("PAYPHONE-T0201", region: "PAYPHONE")
        #expect(invoice.currency.code == "CZK")
        #expect(invoice.limitAmount == 25_000_000)
        #expect(invoice.dynamicProperties.referenceEnabled)
        #expect(invoice.dynamicProperties.referencePattern == "^[0-9]{1,10}$")
        #expect(invoice.terminalCode?.count == 4)
        let travel = try info("PAYPHONE-T0103", region: "PAYPHONE")
        #expect(travel.permittedCountries == ["CZ", "SK"])
        #expect(!travel.isReversalAvailable)
    }

    @Test func letsARegionSwitchTurnAFeatureOffOnEveryTerminal() throws {
        var eu = try #require(environments.region("EU"))
        eu.features.refunds = false
        eu.features.reversals = false
        eu.features.tips = false
        eu.features.apms = []
        let found = try #require(merchants.region("EU")?.terminal("EU-T0101"))
        let info = TerminalInfo(terminal: found.terminal, merchant: found.merchant, region: eu)
        #expect(!info.isRefundAvailable)
        #expect(!info.isReversalAvailable)
        #expect(!info.tipEnabled)
        #expect(info.maxTipAmount == nil)
        #expect(info.dynamicProperties.rates == [])
        #expect(!info.apmEnabled)

        var lowered = try #require(environments.region("EU"))
        lowered.limits.maxTransactionAmount = 100
        #expect(TerminalInfo(terminal: found.terminal, merchant: found.merchant, region: lowered).limitAmount == 100)
    }

    @Test func decodesBackToTheSameValue() throws {
        for id in ["EU-T0101", "EU-T0202", "EU-T0203"] {
            let value = try info(id, region: "EU")
            #expect(try JSONDecoder().decode(TerminalInfo.self, from: JSONEncoder().encode(value)) == value)
        }
    }

    // MARK: InfoInit

    @Test(arguments: [
        ("EU-T0101", true, ["portal", "registrationCode"]),
        ("EU-T0102", false, ["registrationCode"]),
        ("EU-T0103", false, ["portal"]),
        ("MBANK-T0202", true, ["portal", "registrationCode"]),
    ])
    func infoInitTellsLoginAndRegistrationOptions(terminalID: String, autoLogin: Bool, options: [String]) throws {
        let regionID = String(terminalID.prefix { $0 != "-" })
        let terminal = try #require(merchants.region(regionID)?.terminal(terminalID)?.terminal)
        let object = try json(InfoInit(terminal: terminal))
        #expect(Set(object.keys) == ["isAutoLoginEnabled", "registerOptions"])
        #expect(object["isAutoLoginEnabled"] as? Bool == autoLogin)
        #expect(object["registerOptions"] as? [String] == options)
    }
}
