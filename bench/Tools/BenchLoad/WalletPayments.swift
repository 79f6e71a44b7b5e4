import Foundation
import SandboxHTTPClient
import Synchronization

// MARK: - apm and blik: QR and BLIK payments, approved through the wallet's customer API

func apm(_ arguments: Arguments) {
    let brand = arguments.string("brand") ?? "ALIPAY"
    let amount = arguments.int("amount", default: 1000)
    let body = Array(#"{"requestedAmount":\#(amount),"brand":"\#(brand)"}"#.utf8)
    walletPayments(arguments, path: "/terminal/v1/apm/qr/payments") { _, _ in .made(body) }
}

/// BLIK: before each payment the customer's bank app issues a code (`POST W/api/blik/codes`), the
/// device pays with it, the customer approves the confirmation request, the device polls.
func blik(_ arguments: Arguments) {
    let amount = arguments.int("amount", default: 100)
    let customers = (arguments.string("customers") ?? "").split(separator: ",").map(String.init)
    let wallet = arguments.required("wallet")
    walletPayments(arguments, path: "/terminal/v1/apm/blik/payments") { index, bank in
        guard index < customers.count else { return .failed("--customers names fewer customers than STATE has devices") }
        let issued: HTTPClientResponse
        do {
            issued = try bank.send(
                HTTPClientRequest(
                    method: .post, url: wallet + "/api/blik/codes", headers: ["Content-Type": "application/json"],
                    body: Array(#"{"customerId":"\#(customers[index])"}"#.utf8)))
        } catch {
            return .failed("code: \(error)")
        }
        guard issued.status == 201, let code = stringMember("code", in: issued.body)
        else { return .failed("code: " + describe(issued)) }
        return .made(Array(#"{"requestedAmount":\#(amount),"payCode":"\#(code)"}"#.utf8))
    }
}

/// What a payment's body is, or why there is none.
enum PaymentBody {
    case made([UInt8])
    case failed(String)
}

/// One thread per device of STATE, paying back to back: the device makes the payment (`path`,
/// with the body `prepare` makes, given the device's index and a client to the wallet), the
/// customer approves it through the wallet's API (`POST W/api/orders/{id}/pay`, answered once the
/// host took the notification: its latency is written to --pay-calls), and the device's next poll
/// reads CLEARED. A request is one whole payment.
func walletPayments(_ arguments: Arguments, path: String, prepare: @escaping @Sendable (Int, HTTPClient) -> PaymentBody) {
    let (_, connections) = loadState(arguments.required("state"))
    let base = arguments.required("url")
    let wallet = arguments.required("wallet")
    let warmup = arguments.double("warmup", default: 2)
    // Pay calls are kept from (about) the end of the warm-up, as runLoad records payments.
    let recordFrom = monotonicNanos() + 50_000_000 + UInt64(warmup * 1e9)
    let payCalls = Mutex<[UInt64]>([])
    runLoad(
        label: arguments.string("label") ?? "apm", connections: connections.count, warmup: warmup,
        duration: arguments.double("duration", default: 10), latenciesFile: arguments.string("latencies"),
        rate: arguments.string("rate").map { text in
            guard let rate = Double(text), rate > 0 else { fail("--rate must be a number more than 0") }
            return rate
        }
    ) { index in
        let connection = connections[index]
        let host = HTTPClient(configuration: .init(maxIdleHandles: 1))
        let customer = HTTPClient(configuration: .init(maxIdleHandles: 1))
        let headers: HTTPClientHeaders = ["Authorization": "Bearer " + connection.token, "Content-Type": "application/json"]
        return {
            let body: [UInt8]
            switch prepare(index, customer) {
            case .made(let made): body = made
            case .failed(let why): return .failed(why)
            }
            let created: HTTPClientResponse
            do {
                created = try host.send(HTTPClientRequest(method: .post, url: base + path, headers: headers, body: body))
            } catch {
                return .failed("create: \(error)")
            }
            guard created.status == 201, let id = stringMember("transactionId", in: created.body) else {
                return .failed("create: " + describe(created))
            }
            let pressed = monotonicNanos()
            let paid: HTTPClientResponse
            do {
                paid = try customer.send(
                    HTTPClientRequest(
                        method: .post, url: wallet + "/api/orders/\(id)/pay", headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
            } catch {
                return .failed("pay: \(error)")
            }
            let answered = monotonicNanos()
            guard paid.status == 200, holds(paid.body, #""status":"paid""#) else { return .failed("pay: " + describe(paid)) }
            if pressed >= recordFrom { payCalls.withLock { $0.append(answered - pressed) } }
            let polled: HTTPClientResponse
            do {
                polled = try host.send(HTTPClientRequest(method: .get, url: base + "/terminal/v1/apm/transactions/\(id)", headers: headers, body: []))
            } catch {
                return .failed("poll: \(error)")
            }
            guard polled.status == 200, holds(polled.body, #""transactionStatus":"CLEARED""#) else { return .failed("poll: " + describe(polled)) }
            return .ok
        }
    }
    if let file = arguments.string("pay-calls") {
        let text = payCalls.withLock { $0 }.map(String.init).joined(separator: "\n") + "\n"
        guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else { fail("cannot write \(file)") }
    }
}
