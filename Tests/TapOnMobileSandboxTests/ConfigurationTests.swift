import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// What works without a sandbox: endpoints, environments, models, errors, the SDK's preconditions.
@Suite("SDK configuration, models and preconditions")
struct ConfigurationTests {
    @Test("endpoints: an override wins, then sandbox up's endpoints.json, then 8100 + the region's index")
    func endpointResolution() throws {
        let folder = TemporaryDirectory()
        var configuration = SandboxConfiguration(endpointsFile: nil, deviceDirectory: folder.file("device"))
        #expect(try configuration.endpoint(for: "EU") == URL(string: "http://127.0.0.1:8100"))
        #expect(try configuration.endpoint(for: "PAYONE_AT") == URL(string: "http://127.0.0.1:8103"))
        #expect(try configuration.endpoint(for: "MBANK") == URL(string: "http://127.0.0.1:8108"))
        #expect(try configuration.endpoint(for: "NOWHERE") == nil)

        let file = folder.file("endpoints.json")
        try Data(#"{"portal": "http://127.0.0.1:9109", "wallet": "http://127.0.0.1:9110", "environments": {"EU": "http://127.0.0.1:9100"}}"#.utf8)
            .write(to: file)
        configuration.endpointsFile = file
        #expect(try configuration.endpoint(for: "EU") == URL(string: "http://127.0.0.1:9100"))
        #expect(try configuration.endpoint(for: "MBANK") == nil, "a region endpoints.json does not list is not running")

        configuration.endpointOverrides["EU"] = URL(string: "http://127.0.0.1:7000")
        #expect(try configuration.endpoint(for: "EU") == URL(string: "http://127.0.0.1:7000"))

        try Data("not json".utf8).write(to: file)
        #expect(throws: TapOnMobileError.initialization(.unknownEnvironment)) { try configuration.endpoint(for: "MBANK") }
    }

    @Test("environments: the seed's cases plus mBank, Payone AT and PagBank, each naming a region and a flavour")
    func environments() throws {
        #expect(Environments.allCases.count == 40)
        for environment in Environments.allCases {
            #expect(
                Environments.regions.contains(environment.region) || Environments.vendorRegionOffsets[environment.region] != nil,
                "\(environment)")
            #expect(Environments(region: environment.region, flavour: environment.flavour) == environment)
        }
        #expect(Environments.sandboxPayone.region == "PAYONE_DE")
        #expect(Environments.prodPayoneAT.region == "PAYONE_AT")
        #expect(Environments.sandboxPayPhone.region == "PAYPHONE")
        #expect(Environments.uatMBANK.region == "MBANK" && Environments.uatMBANK.flavour == "uat")
        #expect(Environments.preING.region == "ING" && Environments.preING.flavour == "pre")
        #expect(Environments.prodEU.flavour == "prod")
        #expect(Environments.sandboxPAGBANK.region == "PAGBANK" && Environments.sandboxPAGBANK.homeCountry == "BR")
        #expect(try SandboxConfiguration(endpointsFile: nil).endpoint(for: "PAGBANK") == URL(string: "http://127.0.0.1:8113"))
        #expect(TapOnMobileLanguage.allCases.count == 11)
    }

    @Test("TransactionDetail decodes the host's JSON with the seed's AID and CID keys, and encodes them back")
    func transactionDetailKeys() throws {
        let json = #"""
            {"transactionId": "t-1", "transactionStatus": "DECLINED", "transactionType": "AUTH", "transactionAmount": 1051,
             "tipAmount": null, "transactionDate": "2026-11-29T12:00:00.250Z", "merchantId": "EU-M01", "terminalId": "EU-T0101",
             "cancellable": false, "cardType": "VISA", "expiryDate": "2028-12-31T00:00:00Z", "authId": "", "AID": "A0000000031010",
             "cardNumber": "476173******0011", "responseCode": "51", "responseMsg": "Insufficient funds", "CID": "00",
             "paymentMethod": "CARD", "currency": {"code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2},
             "somethingNew": true}
            """#
        let detail = try JSONDecoder().decode(TransactionDetail.self, from: Data(json.utf8))
        #expect(detail.AID == "A0000000031010")
        #expect(detail.CID == "00")
        #expect(detail.transactionDate == Date(timeIntervalSince1970: 1_795_953_600.25))
        #expect(detail.currency?.isoCode == 978)
        #expect(detail.outcomeError == .transaction(.declined))
        #expect(detail.outcomeError?.code == "51")
        #expect(detail.outcomeError?.message == "Insufficient funds")

        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(detail)) as? [String: Any]
        #expect(encoded?["AID"] as? String == "A0000000031010")
        #expect(encoded?["CID"] as? String == "00")
        #expect(try JSONDecoder().decode(TransactionDetail.self, from: JSONEncoder().encode(detail)) == detail)
    }

    @Test("every error category has its own tapsim exit code")
    func exitCodes() {
        let errors: [(TapOnMobileError, Int32)] = [
            (.initialization(.notInitialized), 10), (.cardReaderSession(.notPrepared), 11), (.registration(.codeUsed), 12),
            (.session(.sessionExpired), 13), (.transaction(.declined), 14), (.location(.denied), 15),
            (.network(.unreachable), 16), (.validation(.invalidRequest), 17),
        ]
        for (error, code) in errors {
            #expect(error.exitCode == code, "\(error)")
        }
        #expect(Set(TapOnMobileError.Category.allCases.map(\.exitCode)).count == 8)
        let http = TapOnMobileError.network(.http(status: 503, code: "maintenance"))
        #expect(http.status == 503 && http.code == "maintenance" && http.category == .network)
    }

    @Test("before initialization every call fails with initialization(.notInitialized); getSDKVersion works")
    func notInitialized() async throws {
        let folder = TemporaryDirectory()
        let sdk = TapOnMobile(configuration: SandboxConfiguration(endpointsFile: nil, deviceDirectory: folder.file("device")))
        #expect(await sdk.beginRegistration() == .failure(.initialization(.notInitialized)))
        #expect(await sdk.doLogin(pin: "1234") == .failure(.initialization(.notInitialized)))
        #expect(await sdk.isDeviceRegistered() == .failure(.initialization(.notInitialized)))
        #expect(sdk.updateLanguage(language: .dutch) == .failure(.initialization(.notInitialized)))
        let version = try value(await sdk.getSDKVersion(), "getSDKVersion")
        #expect(version.range(of: #"^sandbox-\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(version)")
    }

    @Test("an iPhone XS is not supported: initialization fails with cardReaderSession(.unsupported)")
    func unsupportedDevice() async throws {
        let folder = TemporaryDirectory()
        let sdk = TapOnMobile(
            configuration: SandboxConfiguration(
                endpointsFile: nil, deviceDirectory: folder.file("device"), device: Device(model: "iPhone11,8", osVersion: "17.5")))
        #expect(!sdk.isTapToPaySupported())
        let error = try failure(await sdk.initialization(environment: .sandboxEU), "initialization")
        #expect(error == .cardReaderSession(.unsupported))
        #expect(error.exitCode == 11)
    }

    @Test("a host that does not answer: initialization fails with network(.unreachable)")
    func unreachableHost() async throws {
        let folder = TemporaryDirectory()
        let port = freePort()
        let sdk = TapOnMobile(
            configuration: SandboxConfiguration(
                endpointOverrides: ["EU": URL(string: "http://127.0.0.1:\(port)")!], endpointsFile: nil,
                deviceDirectory: folder.file("device"), requestTimeout: 5))
        #expect(sdk.isTapToPaySupported())
        let error = try failure(await sdk.initialization(environment: .sandboxEU), "initialization")
        #expect(error == .network(.unreachable), "\(error)")
        #expect(error.exitCode == 16)
        #expect(await sdk.beginRegistration() == .failure(.initialization(.notInitialized)))
    }
}
