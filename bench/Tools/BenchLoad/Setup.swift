import CardPayload
import Foundation
import SandboxCrypto
import SandboxHTTPClient

// MARK: - setup: devices registered over HTTP

func setup(_ arguments: Arguments) {
    let base = arguments.required("url")
    let backOfficeKey = arguments.required("backoffice-key")
    let region = arguments.required("region")
    let pin = arguments.string("pin") ?? "1234"
    let terminals = arguments.required("terminals").split(separator: ",").map(String.init)
    let client = HTTPClient(configuration: .init(maxIdleHandles: 1))
    let tag = String(getpid()) + "-" + Hex.encode(SecureRandom.bytes(count: 3))

    func post(_ path: String, _ body: [String: Any], bearer: String? = nil, expect: Int) -> [String: Any] {
        var headers: HTTPClientHeaders = ["Content-Type": "application/json"]
        if let bearer { headers = ["Content-Type": "application/json", "Authorization": "Bearer " + bearer] }
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        let response: HTTPClientResponse
        do {
            response = try client.send(HTTPClientRequest(method: .post, url: base + path, headers: headers, body: Array(data)))
        } catch {
            fail("POST \(path): \(error)")
        }
        guard response.status == expect else { fail("POST \(path): expected \(expect), got \(describe(response))") }
        return object(response.body, "POST \(path)")
    }

    var connections: [[String: Any]] = []
    for (index, terminal) in terminals.enumerated() {
        let device = "bench-\(tag)-\(index)"
        let challenge = post("/terminal/v1/registrations", ["deviceId": device, "deviceModel": "bench-load"], expect: 201)
        let confirmed = post(
            "/backoffice/v1/challenges/confirm", ["challengeCode": challenge["challengeCode"] as? String ?? "", "terminalId": terminal],
            bearer: backOfficeKey, expect: 200)
        let registered = post(
            "/terminal/v1/registrations/complete",
            ["deviceId": device, "backofficeCode": confirmed["backofficeCode"] as? String ?? "", "pin": pin], expect: 200)
        let session = post(
            "/terminal/v1/sessions", ["deviceId": device, "deviceSecret": registered["deviceSecret"] as? String ?? "", "pin": pin],
            expect: 201)
        let token = session["sessionToken"] as? String ?? ""
        let fetchedAt = wallMillis()
        let reader = post("/terminal/v1/reader/prepare", [:], bearer: token, expect: 200)
        guard let serverTime = reader["serverTimeUnix"] as? Double, let key = reader["readerKey"] as? String else {
            fail("reader/prepare answered no serverTimeUnix or readerKey")
        }
        connections.append([
            "terminalId": registered["terminalId"] as? String ?? terminal, "deviceId": device, "token": token, "readerKey": key,
            "serverTimeMs": Int64((serverTime * 1000).rounded()), "fetchedAtMs": fetchedAt,
        ])
    }
    let state: [String: Any] = ["region": region, "url": base, "connections": connections]
    let out = arguments.required("out")
    guard FileManager.default.createFile(atPath: out, contents: Data(json(state).utf8)) else { fail("cannot write \(out)") }
    FileHandle.standardError.write(Data("bench-load: \(terminals.count) devices registered and logged in\n".utf8))
}

struct DeviceSession: Sendable {
    let terminalId: String
    let token: String
    let readerKey: [UInt8]
    let serverTimeMs: Int64
    let fetchedAtMs: Int64
}

func loadState(_ path: String) -> (region: String, connections: [DeviceSession]) {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let state = object(Array(data), path)
    let region = state["region"] as? String ?? ""
    let list = state["connections"] as? [[String: Any]] ?? []
    let connections = list.map { entry -> DeviceSession in
        guard let key = try? Base64.decode(entry["readerKey"] as? String ?? "") else { fail("\(path): bad readerKey") }
        return DeviceSession(
            terminalId: entry["terminalId"] as? String ?? "", token: entry["token"] as? String ?? "", readerKey: key,
            serverTimeMs: (entry["serverTimeMs"] as? NSNumber)?.int64Value ?? 0,
            fetchedAtMs: (entry["fetchedAtMs"] as? NSNumber)?.int64Value ?? 0)
    }
    guard !connections.isEmpty else { fail("\(path) holds no connections") }
    return (region, connections)
}
