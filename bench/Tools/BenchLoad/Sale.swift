import CardPayload
import Foundation
import SandboxCrypto
import SandboxHTTPClient
import Synchronization

// MARK: - sale: sealed card payloads POSTed back to back

func loadCard(file: String, name: String) -> CardData {
    guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
    let cards = object(Array(data), file)["cards"] as? [[String: Any]] ?? []
    guard let card = cards.first(where: { $0["name"] as? String == name }) else { fail("\(file) has no card \(name)") }
    guard let brand = CardBrand(rawValue: card["brand"] as? String ?? ""),
        let cvm = CardholderVerification(rawValue: card["cvm"] as? String ?? "")
    else { fail("card \(name): unknown brand or cvm") }
    return CardData(
        pan: card["pan"] as? String ?? "", expiry: card["expiry"] as? String ?? "", brand: brand,
        country: card["country"] as? String ?? "", aid: card["aid"] as? String ?? "",
        applicationLabel: card["applicationLabel"] as? String ?? "", cvm: cvm, panSequence: card["panSequence"] as? String)
}

func sale(_ arguments: Arguments) {
    let (region, connections) = loadState(arguments.required("state"))
    // --url, or --urls U1,U2,…: connection i sends to the (i mod n)th (replicas of one host).
    let bases = (arguments.string("urls") ?? arguments.required("url")).split(separator: ",").map(String.init)
    let path = arguments.string("path") ?? "/terminal/v1/transactions/sale"
    let expectStatus = arguments.int("expect-status", default: 201)
    let expectContains = arguments.string("expect-contains")
    let card = loadCard(file: arguments.string("card-file") ?? "sandbox-data/cards.json", name: arguments.string("card") ?? "visa")
    let amount = arguments.int("amount", default: 1000)
    let currency = arguments.string("currency") ?? "EUR"
    let saveBody = arguments.string("save-body")
    let saved = Mutex(false)
    let live = LiveRandomSource()
    runLoad(
        label: arguments.string("label") ?? "sale", connections: connections.count,
        warmup: arguments.double("warmup", default: 2), duration: arguments.double("duration", default: 10), latenciesFile: arguments.string("latencies")
    ) { index in
        let connection = connections[index]
        let url = bases[index % bases.count] + path
        let client = HTTPClient(configuration: .init(maxIdleHandles: 1))
        let headers: HTTPClientHeaders = ["Authorization": "Bearer " + connection.token, "Content-Type": "application/json"]
        return {
            // A fresh read each time: unique readId, readAt on the host's clock.
            let payload = CardPayload(
                readId: ReadID.make(random: live),
                readAt: connection.serverTimeMs + (wallMillis() - connection.fetchedAtMs), card: card)
            let sealed: String
            do {
                sealed = try PayloadSealer.seal(payload, key: connection.readerKey, region: region, terminalId: connection.terminalId)
            } catch {
                return .failed("seal: \(error)")
            }
            let body = #"{"currency":"\#(currency)","requestedAmount":\#(amount),"cardPayload":"\#(sealed)"}"#
            let response: HTTPClientResponse
            do {
                response = try client.send(HTTPClientRequest(method: .post, url: url, headers: headers, body: Array(body.utf8)))
            } catch {
                return .failed("transport: \(error)")
            }
            guard response.status == expectStatus else { return .failed(describe(response)) }
            if let expectContains, !holds(response.body, expectContains) { return .failed(describe(response)) }
            if let saveBody, saved.withLock({ done in defer { done = true }; return !done }) {
                _ = FileManager.default.createFile(atPath: saveBody, contents: Data(response.body))
                _ = FileManager.default.createFile(atPath: saveBody + ".request", contents: Data(body.utf8))
            }
            return .ok
        }
    }
}
