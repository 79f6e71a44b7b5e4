import Foundation
// Built into every test bundle through TestSupport → SandboxHTTP → SandboxCrypto: AES-256-GCM and
// base64, which a reader needs to seal card and PIN payloads.
import SandboxCrypto
import SandboxTestSupport

/// A registered, logged-in device on one terminal with its simulated reader: it makes
/// transactions over HTTP as the SDK and its reader do (docs/card-payments.md).
///
/// The reader key and the host's clock come from `POST /terminal/v1/reader/prepare`, the
/// terminal's currency from `GET /terminal/v1/terminal`, the cards from `sandbox-data/cards.json`.
final class PaymentDevice {
    let host: HostUnderTest
    let terminal: Fixtures.Terminal
    let deviceID: String
    private let secret: String
    private let pin: String
    private(set) var token: String
    let readerKey: [UInt8]
    let currency: String
    private let cards: [String: [String: Any]]

    init(host: HostUnderTest, terminal: Fixtures.Terminal, device: String, pin: String, _ fixtures: Fixtures) throws {
        self.host = host
        self.terminal = terminal
        deviceID = device
        self.pin = pin
        secret = try host.register(device: device, terminal: terminal.id, pin: pin, fixtures)
        token = try host.login(device: device, secret: secret, pin: pin)
        let reader = try host.expect(200, "POST", "/terminal/v1/reader/prepare", bearer: token)
        guard let key = reader["readerKey"] as? String, let bytes = try? Base64.decode(key), bytes.count == 32 else {
            throw HarnessError("POST /terminal/v1/reader/prepare gave no 32-byte readerKey: \(reader)")
        }
        readerKey = bytes
        let info = try host.expect(200, "GET", "/terminal/v1/terminal", bearer: token)
        guard let code = (info["currency"] as? [String: Any])?["code"] as? String else {
            throw HarnessError("GET /terminal/v1/terminal gave no currency.code: \(info)")
        }
        currency = code
        cards = try Self.loadCards()
    }

    /// A new session (the older one ends): after the sandbox clock moved, or to start a pass afresh.
    func relogin() throws {
        token = try host.login(device: deviceID, secret: secret, pin: pin)
    }

    /// The host's sandbox clock in milliseconds, on which a payload's `readAt` is measured.
    func hostNow() throws -> Int64 {
        let reader = try host.expect(200, "POST", "/terminal/v1/reader/prepare", bearer: token)
        guard let seconds = reader["serverTimeUnix"] as? Double else {
            throw HarnessError("POST /terminal/v1/reader/prepare gave no serverTimeUnix: \(reader)")
        }
        return Int64((seconds * 1000).rounded())
    }

    /// Moves the sandbox clock forward (in-flight transactions time out when the terminal is next
    /// touched) and logs in again, since the session's end moved closer.
    func advanceClock(seconds: Int) throws {
        try host.expect(200, "POST", "/_sandbox/clock", body: ["advanceSeconds": seconds])
        try relogin()
    }

    // MARK: - Sealed payloads

    /// `plaintext` sealed for this terminal: base64 of `nonce ‖ ciphertext ‖ tag`, AES-256-GCM
    /// under the reader key, associated data `tapsandbox-card-v1|<REGION>|<terminalId>`.
    func seal(_ plaintext: [String: Any]) throws -> String {
        let json = try JSONSerialization.data(withJSONObject: plaintext, options: [.sortedKeys])
        let box = try AESGCM.seal(
            json, key: readerKey, associatedData: Array("tapsandbox-card-v1|\(host.hostRegion)|\(terminal.id)".utf8))
        return Base64.encode(box.combined)
    }

    static func readID() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    /// A read of the test card `name`, tapped at `readAt` (host milliseconds), with the PIN typed on the reader.
    func cardPayload(_ name: String, pin: String? = nil, readAt: Int64) throws -> String {
        guard let card = cards[name] else { throw HarnessError("sandbox-data/cards.json has no card \(name)") }
        return try seal(["v": 1, "readId": Self.readID(), "readAt": readAt, "card": card, "pin": pin ?? NSNull()])
    }

    /// A PIN typed on the reader after PIN_REQUESTED.
    func pinPayload(_ pin: String, readAt: Int64) throws -> String {
        try seal(["v": 1, "readId": Self.readID(), "readAt": readAt, "pin": pin])
    }

    /// The `card` objects of `sandbox-data/cards.json` by short name, as a reader sends them.
    static func loadCards() throws -> [String: [String: Any]] {
        let file = Paths.sandboxData.appendingPathComponent("cards.json")
        guard let data = try? Data(contentsOf: file),
            let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["cards"] as? [[String: Any]]
        else { throw HarnessError("\(file.path) is missing or has no cards") }
        var cards: [String: [String: Any]] = [:]
        for entry in list {
            guard let name = entry["name"] as? String else { continue }
            var card: [String: Any] = [:]
            for key in ["pan", "expiry", "brand", "country", "aid", "applicationLabel", "cvm", "panSequence"] {
                card[key] = entry[key] ?? NSNull()
            }
            cards[name] = card
        }
        return cards
    }

    // MARK: - Transactions

    /// A transaction call that must answer `status` with a TransactionDetail in `expected`.
    @discardableResult
    func transaction(
        _ path: String, _ body: [String: Any], status: Int = 201, expected: String, file: StaticString = #fileID,
        line: UInt = #line
    ) throws -> String {
        let detail = try host.expect(status, "POST", path, body: body, bearer: token)
        guard let id = detail["transactionId"] as? String, detail["transactionStatus"] as? String == expected else {
            throw HarnessError("preparing payments: POST \(path) \(body) answered \(detail), not a \(expected) transaction")
        }
        return id
    }

    /// A sale of `amount` minor units in the terminal's currency with `extra` fields.
    @discardableResult
    func sale(_ amount: Int, _ extra: [String: Any] = [:], expected: String) throws -> String {
        try transaction(
            "/terminal/v1/transactions/sale", ["currency": currency, "requestedAmount": amount].merging(extra) { $1 },
            expected: expected)
    }
}
