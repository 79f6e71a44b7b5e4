import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// A real `sandbox-host` (the built executable) on a port the kernel picks, with its own empty
/// data directory and no access log, stopped when the value goes away.
final class HostUnderTest {
    static let region = "EU"

    let process: SandboxHostProcess
    let dataDirectory = TemporaryDirectory()
    /// `http://127.0.0.1:<port>`
    var base: String { process.url }
    var port: UInt16 { process.port }

    /// The QR wallet provider the host makes orders at (`--wallet-url`), when it has one.
    let wallet: WalletProviderDouble?

    /// The host's region: EU, or MBANK for the BLIK surface (its terminals have `blikEnabled`).
    let hostRegion: String

    init(region: String = HostUnderTest.region, wallet: WalletProviderDouble? = nil) throws {
        self.wallet = wallet
        hostRegion = region
        // CONFORMANCE_ACCESS_LOG=<file> keeps the host's access log (which statuses the run saw).
        process = try SandboxHostProcess(
            region: region, dataDirectory: dataDirectory.url,
            arguments: ["--access-log", ProcessInfo.processInfo.environment["CONFORMANCE_ACCESS_LOG"] ?? "off"]
                + (wallet.map { ["--wallet-url", $0.url] } ?? []))
    }

    deinit { wallet?.stop() }

    /// A JSON answer of the host.
    struct Answer {
        var status: Int
        var text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
    }

    /// One request over a fresh connection (`Connection: close`).
    func call(
        _ method: String, _ path: String, body: [String: Any]? = nil, bearer: String? = nil, authorization: String? = nil
    ) throws -> Answer {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        // Body or not, a write declares JSON, as every service requires (SiteGate).
        if body != nil || (method != "GET" && method != "HEAD") { head += "Content-Type: application/json\r\n" }
        head += "Content-Length: \(payload.count)\r\n"
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        // MONEI's API key goes bare, with no scheme word.
        if let authorization { head += "Authorization: \(authorization)\r\n" }
        let connection = try RawConnection(port: port)
        try connection.send(Array(head.utf8) + Array("\r\n".utf8) + Array(payload))
        let response = try connection.readResponse()
        return Answer(status: response.status, text: response.text)
    }

    /// `call`, requiring `status`; the answer's JSON object.
    @discardableResult
    func expect(
        _ status: Int, _ method: String, _ path: String, body: [String: Any]? = nil, bearer: String? = nil,
        authorization: String? = nil
    ) throws -> [String: Any] {
        let answer = try call(method, path, body: body, bearer: bearer, authorization: authorization)
        guard answer.status == status else {
            throw HarnessError("preparing credentials: \(method) \(path) answered \(answer.status), not \(status): \(answer.text)")
        }
        return answer.json
    }
}

/// The region's fixtures the harness needs, read from `sandbox-data/merchants.json`
/// (`{"regions": {"EU": {"backOfficeKey", "merchants": [{"id", "apiKey", "terminals": [{"id", …}]}]}}}`).
struct Fixtures {
    struct Terminal {
        var id: String
        var merchantID: String
        var autoLogin: Bool
        /// `portal` (challenge code) and/or `registrationCode` (token); both when the fixture says nothing.
        var registerOptions: Set<String>
        var refundAvailable = false
        var reversalAvailable = false
        var tipsEnabled = false
        var referencePattern: String? = nil
        var permittedCountries: [String]? = nil

        /// A terminal without special rules: refunds and reversals on, no tips, no reference
        /// pattern, no country list. Generated sales meet only the rules every terminal has.
        var isPlain: Bool {
            refundAvailable && reversalAvailable && !tipsEnabled && referencePattern == nil && permittedCountries == nil
        }
    }

    struct Merchant {
        var id: String
        var apiKey: String
        var terminals: [Terminal]
    }

    var backOfficeKey: String
    var merchants: [Merchant]

    var merchantID: String { merchants[0].id }
    var merchantAPIKey: String { merchants[0].apiKey }
    var terminals: [Terminal] { merchants.flatMap(\.terminals) }

    static func load(region: String = HostUnderTest.region) throws -> Fixtures {
        let file = Paths.sandboxData.appendingPathComponent("merchants.json")
        guard let data = try? Data(contentsOf: file) else {
            throw HarnessError("\(file.path) is missing: the conformance suite needs the merchant fixtures")
        }
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let regions = root["regions"] as? [String: Any], let entry = regions[region] as? [String: Any],
            let key = entry["backOfficeKey"] as? String, let list = entry["merchants"] as? [[String: Any]]
        else { throw HarnessError("merchants.json has no regions.\(region) with backOfficeKey and merchants") }
        let merchants = try list.map { merchant -> Merchant in
            guard let id = merchant["id"] as? String, let apiKey = merchant["apiKey"] as? String,
                let terminals = merchant["terminals"] as? [[String: Any]]
            else { throw HarnessError("merchants.json: a merchant of \(region) lacks id, apiKey or terminals") }
            return Merchant(
                id: id, apiKey: apiKey,
                terminals: try terminals.map { terminal in
                    guard let terminalID = terminal["id"] as? String else {
                        throw HarnessError("merchants.json: a terminal of \(id) has no id")
                    }
                    return Terminal(
                        id: terminalID, merchantID: id, autoLogin: terminal["autoLogin"] as? Bool ?? false,
                        registerOptions: Set(terminal["registerOptions"] as? [String] ?? ["portal", "registrationCode"]),
                        refundAvailable: terminal["refundAvailable"] as? Bool ?? false,
                        reversalAvailable: terminal["reversalAvailable"] as? Bool ?? false,
                        tipsEnabled: (terminal["tips"] as? [String: Any])?["enabled"] as? Bool ?? false,
                        referencePattern: (terminal["reference"] as? [String: Any])?["pattern"] as? String,
                        permittedCountries: terminal["permittedCountries"] as? [String])
                })
        }
        guard merchants.first?.terminals.isEmpty == false else {
            throw HarnessError("merchants.json: the first merchant of \(region) has no terminal")
        }
        return Fixtures(backOfficeKey: key, merchants: merchants)
    }
}

extension HostUnderTest {
    /// A challenge code of a new portal registration (POST /terminal/v1/registrations).
    func challenge(device: String) throws -> String {
        let challenge = try expect(
            201, "POST", "/terminal/v1/registrations", body: ["deviceId": device, "deviceModel": "iPhone15,2"])
        guard let code = challenge["challengeCode"] as? String else {
            throw HarnessError("POST /terminal/v1/registrations gave no challengeCode: \(challenge)")
        }
        return code
    }

    /// The back-office code of a challenge the portal confirmed for `terminal`.
    func backOfficeCode(device: String, terminal: String, _ fixtures: Fixtures) throws -> String {
        let confirmed = try expect(
            200, "POST", "/backoffice/v1/challenges/confirm",
            body: ["challengeCode": try challenge(device: device), "terminalId": terminal], bearer: fixtures.backOfficeKey)
        guard let code = confirmed["backofficeCode"] as? String else {
            throw HarnessError("POST /backoffice/v1/challenges/confirm gave no backofficeCode: \(confirmed)")
        }
        return code
    }

    /// Registers `device` on `terminal` by the merchant-portal flow over HTTP: its device secret.
    ///
    /// begin (challenge code) → back office confirms it for the terminal (back-office code) →
    /// complete with a PIN (device secret).
    func register(device: String, terminal: String, pin: String, _ fixtures: Fixtures) throws -> String {
        let registered = try expect(
            200, "POST", "/terminal/v1/registrations/complete",
            body: ["deviceId": device, "backofficeCode": try backOfficeCode(device: device, terminal: terminal, fixtures), "pin": pin])
        guard let secret = registered["deviceSecret"] as? String else {
            throw HarnessError("POST /terminal/v1/registrations/complete gave no deviceSecret: \(registered)")
        }
        return secret
    }

    /// Registers a device on the first terminal that takes portal registration and logs it in:
    /// the bearer token of the terminal API's session calls.
    func sessionToken(_ fixtures: Fixtures, deviceID: String = "conformance-session-device", pin: String = "2468") throws -> String {
        guard let terminal = fixtures.terminals.first(where: { $0.registerOptions.contains("portal") }) else {
            throw HarnessError("merchants.json: no terminal of \(hostRegion) takes portal registration")
        }
        let secret = try register(device: deviceID, terminal: terminal.id, pin: pin, fixtures)
        return try login(device: deviceID, secret: secret, pin: pin)
    }

    /// A new session of a registered device (ending its older ones): the bearer token.
    func login(device: String, secret: String, pin: String) throws -> String {
        let session = try expect(
            201, "POST", "/terminal/v1/sessions", body: ["deviceId": device, "deviceSecret": secret, "pin": pin])
        guard let token = session["sessionToken"] as? String else {
            throw HarnessError("POST /terminal/v1/sessions gave no sessionToken: \(session)")
        }
        return token
    }

    /// A registration token the back office issued for `terminal`.
    func registrationToken(terminal: String, _ fixtures: Fixtures) throws -> String {
        let issued = try expect(
            201, "POST", "/backoffice/v1/registration-tokens", body: ["terminalId": terminal], bearer: fixtures.backOfficeKey)
        guard let token = issued["registrationToken"] as? String else {
            throw HarnessError("POST /backoffice/v1/registration-tokens gave no registrationToken: \(issued)")
        }
        return token
    }

    /// The terminals without a device, per GET /backoffice/v1/terminals/{id}.
    func freeTerminals(_ fixtures: Fixtures) throws -> [Fixtures.Terminal] {
        try fixtures.terminals.filter { terminal in
            try expect(200, "GET", "/backoffice/v1/terminals/\(terminal.id)", bearer: fixtures.backOfficeKey)["registered"]
                as? Bool == false
        }
    }
}
