// bench-load: the load generator and seeding tool behind bench/sale.sh and bench/history.sh.
//
//   bench-load setup      --url U --region EU --backoffice-key K --terminals T1,T2,… --out STATE [--pin 1234]
//                         registers one device per terminal over HTTP (portal activation), logs it in,
//                         fetches the reader key; writes what the load needs to STATE (JSON).
//   bench-load sale       --state STATE --url U [--expect-status 201] [--expect-contains S]
//                         [--card-file sandbox-data/cards.json] [--card visa] [--amount 1000] [--currency EUR]
//                         [--save-body FILE]
//                         one thread and one keep-alive connection per device of STATE, each sealing a
//                         fresh card payload and POSTing a sale, back to back.
//   bench-load apm        --state STATE --url U --wallet W [--brand ALIPAY] [--amount 1000]
//                         [--pay-calls FILE]
//                         one thread per device of STATE, each paying by QR back to back: the device makes
//                         the order (POST /terminal/v1/apm/qr/payments), the customer pays it through the
//                         wallet's API (POST W/api/orders/{id}/pay, answered once the host took the
//                         notification: its latency, in ns, one per line, written to --pay-calls), and
//                         the device's next poll reads CLEARED. A request is one whole QR payment.
//   bench-load blik       --state STATE --url U --wallet W --customers C1,C2,… [--amount 100] [--pay-calls FILE]
//                         as apm, by BLIK: before each payment the device's customer (one per device) gets
//                         a code from the bank app's API (POST W/api/blik/codes), the device pays with it
//                         (POST /terminal/v1/apm/blik/payments), the customer approves the request.
//                         apm and blik take [--rate R]: R payments a second in all, each device at its own
//                         steady pace, instead of back to back.
//   bench-load get        --url U --token T --path P [--path P2 …] [--pages 1-50] [--connections 2]
//                         [--expect-contains S] [--warmup-requests N]
//                         GETs the paths in turn (`{page}` becomes a random page); with --warmup-requests,
//                         each connection warms up with N requests, then records for --duration.
//   bench-load raw-sqlite --schema-from HOSTDB --db NEW --terminals T1,… --merchant M [--threads 32]
//                         [--group-commit 1]
//                         one committed INSERT of a transaction row per transaction, WAL + synchronous=FULL,
//                         the schema copied from the host's database; threads share one connection under
//                         a lock, as the host's Store shares its writer. With --group-commit 1, rows that
//                         wait meanwhile are committed together (one sync each batch), each caller
//                         returning once its row is durable.
//   bench-load raw-query  --db HOSTDB --terminal T --query history|count|stats-daily|stats-brand|latest-sale
//                         [--from-ms MS] [--to-ms MS] [--pages 1-50] [--connections 1] [--warmup-requests N]
//                         the SQL of one history endpoint (count and statistics from the hour and day
//                         totals, as the host reads them), run in-process on read-only connections.
//   bench-load explain    --db HOSTDB --terminal T [--from-ms MS] [--to-ms MS]
//                         EXPLAIN QUERY PLAN of every statement raw-query runs.
//   bench-load seed       --db HOSTDB --terminal T --merchant M --rows N --now-ms MS [--days 90] [--currency EUR]
//                         bulk-inserts N realistic transactions of one terminal, spread over the last days
//                         (through the host's triggers, which keep its hour and day totals).
//
// Measuring commands take [--warmup S] [--duration S] [--label NAME] [--latencies FILE] and print one
// JSON object: requests, seconds, rps, p50_ms, p90_ms, p99_ms, max_ms, mean_ms, failures,
// failure_samples, warmup_requests. Requests are recorded by start time after the warm-up.
// Timings are for reading, never asserted.
import CardPayload
import Foundation
import SandboxCrypto
import SandboxHTTPClient
import SandboxStore
import Synchronization

// MARK: - Command line

struct Arguments {
    let command: String
    private var values: [String: [String]] = [:]

    init(_ arguments: [String]) {
        command = arguments.first ?? "help"
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { fail("unexpected argument \(argument)") }
            let name = String(argument.dropFirst(2))
            guard index + 1 < arguments.count else { fail("--\(name) needs a value") }
            values[name, default: []].append(arguments[index + 1])
            index += 2
        }
    }

    func string(_ name: String) -> String? { values[name]?.last }
    func strings(_ name: String) -> [String] { values[name] ?? [] }
    func required(_ name: String) -> String {
        guard let value = string(name) else { fail("\(command) needs --\(name)") }
        return value
    }
    func int(_ name: String, default value: Int) -> Int {
        guard let text = string(name) else { return value }
        guard let number = Int(text) else { fail("--\(name) must be a whole number") }
        return number
    }
    func double(_ name: String, default value: Double) -> Double {
        guard let text = string(name) else { return value }
        guard let number = Double(text) else { fail("--\(name) must be a number") }
        return number
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-load: \(message)\n".utf8))
    exit(1)
}

func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func wallMillis() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

func json(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}

func object(_ bytes: [UInt8], _ what: String) -> [String: Any] {
    guard let value = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
        fail("\(what): not a JSON object: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
    }
    return value
}

// MARK: - Load runner

/// What one request came to: fine, or a failure worth printing.
enum Outcome: Sendable {
    case ok
    case failed(String)
}

/// The measurements of one thread; merged once every thread has stopped.
struct ThreadStats: Sendable {
    var latenciesNanos: [UInt64] = []
    var failures = 0
    var samples: [String] = []
    var warmupRequests = 0
}

/// Runs `connections` threads, each calling its worker back to back: `warmup` seconds unrecorded,
/// then `duration` seconds recorded (by request start time). With `warmupRequests`, each thread
/// instead makes that many unrecorded requests first and then records for `duration` seconds of its
/// own, so an endpoint slower than the warm-up still gets measured. Prints the JSON summary.
///
/// With `rate` (requests a second in all), the workers do not go back to back: worker i starts its
/// requests at `start + i / rate`, then every `connections / rate` seconds (a constant-rate load,
/// as wrk2's `-R`), and a worker that falls behind its slot starts at once, never in a burst. Each
/// request's latency counts from its own start, not from its slot.
func runLoad(
    label: String, connections: Int, warmup: Double, duration: Double, warmupRequests: Int? = nil,
    latenciesFile: String? = nil, rate: Double? = nil, makeWorker: (Int) -> @Sendable () -> Outcome
) {
    let workers = (0..<connections).map(makeWorker)
    let collected = Mutex<[ThreadStats]>([])
    let group = DispatchGroup()
    let start = monotonicNanos() + 50_000_000
    let warmupEnd = start + UInt64(warmup * 1e9)
    let end = warmupEnd + UInt64(duration * 1e9)
    for (index, worker) in workers.enumerated() {
        group.enter()
        let interval = rate.map { UInt64(Double(connections) / $0 * 1e9) }
        let firstSlot = start + (rate.map { UInt64(Double(index) / $0 * 1e9) } ?? 0)
        let thread = Thread {
            var slot = firstSlot
            var stats = ThreadStats()
            stats.latenciesNanos.reserveCapacity(65_536)
            while monotonicNanos() < start {}
            var (recordFrom, recordUntil) = (warmupEnd, end)
            if let warmupRequests {
                for _ in 0..<warmupRequests { _ = worker() }
                stats.warmupRequests = warmupRequests
                recordFrom = monotonicNanos()
                recordUntil = recordFrom + UInt64(duration * 1e9)
            }
            while true {
                if let interval {
                    let now = monotonicNanos()
                    if slot > now { usleep(UInt32((slot - now) / 1000)) }
                    slot = max(slot, now) + interval
                }
                let began = monotonicNanos()
                if began >= recordUntil { break }
                let outcome = worker()
                let finished = monotonicNanos()
                guard began >= recordFrom else {
                    stats.warmupRequests += 1
                    continue
                }
                stats.latenciesNanos.append(finished - began)
                if case .failed(let why) = outcome {
                    stats.failures += 1
                    if stats.samples.count < 3 { stats.samples.append(why) }
                }
            }
            collected.withLock { $0.append(stats) }
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
    let all = collected.withLock { $0 }
    var latencies = all.flatMap(\.latenciesNanos)
    latencies.sort()
    func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(latencies.count)).rounded(.up)) - 1
        return Double(latencies[min(max(rank, 0), latencies.count - 1)]) / 1e6
    }
    let mean = latencies.isEmpty ? 0 : Double(latencies.reduce(0, +)) / Double(latencies.count) / 1e6
    var samples: [String] = []
    for sample in all.flatMap(\.samples) where !samples.contains(sample) && samples.count < 5 { samples.append(sample) }
    let summary: [String: Any] = [
        "label": label, "connections": connections, "seconds": duration, "requests": latencies.count, "rate": rate ?? 0,
        "warmup_requests": all.map(\.warmupRequests).reduce(0, +),
        "rps": Double(latencies.count) / duration, "p50_ms": percentile(50), "p90_ms": percentile(90),
        "p99_ms": percentile(99), "max_ms": percentile(100), "mean_ms": mean,
        "failures": all.map(\.failures).reduce(0, +), "failure_samples": samples,
    ]
    if let latenciesFile {
        // Every recorded latency in nanoseconds, one a line, so a script can merge runs.
        let text = latencies.map(String.init).joined(separator: "\n") + "\n"
        guard FileManager.default.createFile(atPath: latenciesFile, contents: Data(text.utf8)) else { fail("cannot write \(latenciesFile)") }
    }
    print(json(summary))
}

/// Whether `body` holds the UTF-8 of `text`, compared as bytes. The check runs on every request;
/// a `String.contains` goes through Foundation's CFStringFind, 8 % of the generator's CPU against
/// a 1 kB sale answer, which took CPU from the server under test.
func holds(_ body: [UInt8], _ text: String) -> Bool {
    firstOffset(of: Array(text.utf8), in: body) != nil
}

/// Where `needle` first starts in `body`, compared as bytes.
func firstOffset(of needle: [UInt8], in body: [UInt8]) -> Int? {
    guard !needle.isEmpty else { return 0 }
    guard body.count >= needle.count else { return nil }
    return body.withUnsafeBytes { haystack in
        needle.withUnsafeBytes { wanted in
            (0...(haystack.count - wanted.count)).first { offset in
                haystack[offset] == wanted[0] && memcmp(haystack.baseAddress! + offset, wanted.baseAddress!, wanted.count) == 0
            }
        }
    }
}

/// The text of the first string member `"name":"…"` of a compact JSON body (the hosts' and the
/// wallet's answers have no spaces), with no escapes in it, as ids and codes are. Found as bytes,
/// like ``holds(_:_:)``: parsing a QR payment's whole answer (its QR image included) with
/// JSONSerialization cost the generator more CPU than the rest of its requests.
func stringMember(_ name: String, in body: [UInt8]) -> String? {
    let needle = Array("\"\(name)\":\"".utf8)
    guard let offset = firstOffset(of: needle, in: body) else { return nil }
    let start = offset + needle.count
    guard let end = body[start...].firstIndex(of: UInt8(ascii: "\"")), !body[start..<end].contains(UInt8(ascii: "\\")) else { return nil }
    return String(decoding: body[start..<end], as: UTF8.self)
}

func describe(_ response: HTTPClientResponse) -> String {
    "HTTP \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
}

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
    let base = arguments.required("url")
    let url = base + (arguments.string("path") ?? "/terminal/v1/transactions/sale")
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

// MARK: - get: history, count, statistics

func get(_ arguments: Arguments) {
    let base = arguments.required("url")
    let token = arguments.required("token")
    let paths = arguments.strings("path")
    guard !paths.isEmpty else { fail("get needs --path") }
    let pages: ClosedRange<Int> = {
        let parts = (arguments.string("pages") ?? "1-1").split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 1, parts[0] <= parts[1] else { fail("--pages must be FIRST-LAST") }
        return parts[0]...parts[1]
    }()
    let expectContains = arguments.string("expect-contains")
    runLoad(
        label: arguments.string("label") ?? "get", connections: arguments.int("connections", default: 2),
        warmup: arguments.double("warmup", default: 1), duration: arguments.double("duration", default: 5),
        warmupRequests: arguments.string("warmup-requests") == nil ? nil : arguments.int("warmup-requests", default: 1),
        latenciesFile: arguments.string("latencies")
    ) { index in
        let client = HTTPClient(configuration: .init(maxIdleHandles: 1))
        let headers: HTTPClientHeaders = ["Authorization": "Bearer " + token]
        let turn = Mutex(index)
        return {
            let next = turn.withLock { value in defer { value += 1 }; return value }
            let path = paths[next % paths.count].replacingOccurrences(of: "{page}", with: String(Int.random(in: pages)))
            let response: HTTPClientResponse
            do {
                response = try client.send(HTTPClientRequest(url: base + path, headers: headers))
            } catch {
                return .failed("transport: \(error)")
            }
            guard response.status == 200 else { return .failed("\(path): " + describe(response)) }
            if let expectContains, !holds(response.body, expectContains) { return .failed("\(path): " + describe(response)) }
            return .ok
        }
    }
}

// MARK: - Transaction rows (seed and raw-sqlite)

/// What seeded and raw rows are made of.
enum Rows {
    /// The columns a seeded or raw row fills: those of migration 3's `transactions` table but `seq`.
    static let transactionColumns = [
        "id", "terminal_id", "merchant_id", "type", "status", "payment_method", "amount", "tip_amount", "currency",
        "reference", "created_at", "updated_at", "pending_until", "card_brand", "masked_pan", "pan_hash", "card_expiry",
        "card_country", "aid", "application_label", "cvm", "pin_verified", "auth_id", "rrn", "cid", "cryptogram", "response_code",
        "response_message", "original_id", "refunded_at", "refunded_masked_pan", "refund_amount", "dcc_status", "dcc_amount",
        "dcc_currency", "dcc_rate", "dcc_markup", "dcc_ecb", "retries",
    ]
    static let insertTransaction =
        "INSERT INTO transactions (" + transactionColumns.joined(separator: ", ") + ") VALUES ("
        + Array(repeating: "?", count: transactionColumns.count).joined(separator: ", ") + ")"

    static let hexDigits = Array("0123456789abcdef".utf8)

    static let seedCards: [(weight: Int, card: SeedCard)] = [
        (45, SeedCard(brand: "VISA", masked: "476173******0011", panHash: String(repeating: "a1", count: 32), expiry: "2812", country: "BE", aid: "A0000000031010", label: "VISA DEBIT")),
        (33, SeedCard(brand: "MASTERCARD", masked: "555555******0004", panHash: String(repeating: "b2", count: 32), expiry: "3012", country: "BE", aid: "A0000000041010", label: "MASTERCARD")),
        (12, SeedCard(brand: "MAESTRO", masked: "675964******8453", panHash: String(repeating: "c3", count: 32), expiry: "3012", country: "BE", aid: "A0000000043060", label: "MAESTRO")),
        (6, SeedCard(brand: "AMEX", masked: "374245*****1001", panHash: String(repeating: "d4", count: 32), expiry: "3012", country: "US", aid: "A00000002501", label: "AMERICAN EXPRESS")),
        (4, SeedCard(brand: "DISCOVER", masked: "601100******0004", panHash: String(repeating: "e5", count: 32), expiry: "3012", country: "US", aid: "A0000001523010", label: "DISCOVER")),
    ]

    /// (weight, type, status, response code, message)
    static let seedOutcomes: [(Int, String, String, String?, String)] = [
        (840, "AUTH", "CLEARED", "00", "Approved"),
        (30, "AUTH", "REFUNDED", "00", "Approved"),
        (30, "REFUND", "CLEARED", "00", "Approved"),
        (25, "AUTH", "DECLINED", "51", "Insufficient funds"),
        (20, "AUTH", "DECLINED", "05", "Do not honour"),
        (20, "AUTH", "TIMEOUT", nil, "Timed out"),
        (15, "AUTH", "USER_CANCELLED", nil, "Reader: cancelled"),
        (10, "AUTH", "CANCELLED", nil, "Cancelled"),
        (5, "AUTH", "TERMINAL_DECLINED", nil, "Card expired (declined by the reader kernel)"),
        (5, "AUTH", "ERROR", "96", "System malfunction"),
    ]
}

/// A fast deterministic generator for seeding (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func uuid(_ random: inout some RandomNumberGenerator) -> String {
    var bytes = [UInt8](repeating: 0, count: 36)
    for position in 0..<36 {
        if [8, 13, 18, 23].contains(position) {
            bytes[position] = UInt8(ascii: "-")
            continue
        }
        let nibble: UInt8 = position == 14 ? 4 : (position == 19 ? UInt8(8 + Int.random(in: 0..<4, using: &random)) : UInt8.random(in: 0..<16, using: &random))
        bytes[position] = Rows.hexDigits[Int(nibble)]
    }
    return String(decoding: bytes, as: UTF8.self)
}

func digits(_ count: Int, _ random: inout some RandomNumberGenerator) -> String {
    String(decoding: (0..<count).map { _ in UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random) }, as: UTF8.self)
}

func upperHex(_ count: Int, _ random: inout some RandomNumberGenerator) -> String {
    String(decoding: (0..<count).map { _ in Array("0123456789ABCDEF".utf8)[Int.random(in: 0..<16, using: &random)] }, as: UTF8.self)
}

struct SeedCard {
    let brand: String, masked: String, panHash: String, expiry: String, country: String, aid: String, label: String
}

func pick<T>(_ list: [(Int, T)], _ random: inout some RandomNumberGenerator) -> T {
    let total = list.reduce(0) { $0 + $1.0 }
    var roll = Int.random(in: 0..<total, using: &random)
    for (weight, value) in list {
        if roll < weight { return value }
        roll -= weight
    }
    return list[list.count - 1].1
}

/// One realistic row of a terminal's history, created at `createdAt`.
func seedRow(
    terminal: String, merchant: String, currency: String, createdAt: Int64, _ random: inout some RandomNumberGenerator
) -> [DatabaseValue] {
    let card = pick(Rows.seedCards.map { ($0.weight, $0.card) }, &random)
    let (_, type, status, code, message) = pick(Rows.seedOutcomes.map { ($0.0, $0) }, &random)
    let approved = code == "00"
    let hasCard = status != "TIMEOUT" && status != "USER_CANCELLED"
    let amount = Int64(Int.random(in: 1...400, using: &random) * 50)
    func text(_ value: String?) -> DatabaseValue { value.map(DatabaseValue.text) ?? .null }
    let refunded = status == "REFUNDED"
    return [
        .text(uuid(&random)), .text(terminal), .text(merchant), .text(type), .text(status), .text("CARD"), .integer(amount), .null,
        .text(currency), .null, .integer(createdAt), .integer(createdAt + (refunded ? 3_600_000 : 0)), .null,
        hasCard ? .text(card.brand) : .null, hasCard ? .text(card.masked) : .null, hasCard ? .text(card.panHash) : .null,
        hasCard ? .text(card.expiry) : .null, hasCard ? .text(card.country) : .null, hasCard ? .text(card.aid) : .null,
        hasCard ? .text(card.label) : .null, hasCard ? .text("none") : .null, .integer(0),
        approved ? .text(digits(6, &random)) : .null, approved ? .text(digits(12, &random)) : .null,
        hasCard ? .text(approved ? "40" : "00") : .null, hasCard ? .text(upperHex(16, &random)) : .null, text(code),
        .text(message), type == "REFUND" ? .text(uuid(&random)) : .null, refunded ? .integer(createdAt + 3_600_000) : .null,
        refunded ? .text(card.masked) : .null, refunded ? .integer(amount) : .null, .null, .null, .null, .null, .null, .null,
        .integer(0),
    ]
}

// MARK: - seed

func seed(_ arguments: Arguments) {
    let path = arguments.required("db")
    let terminal = arguments.required("terminal")
    let merchant = arguments.required("merchant")
    let currency = arguments.string("currency") ?? "EUR"
    let rows = arguments.int("rows", default: 10_000)
    guard let now = Int64(arguments.required("now-ms")) else { fail("--now-ms must be milliseconds") }
    let days = arguments.int("days", default: 90)
    let batch = max(1, arguments.int("batch", default: 50_000))
    var random = SplitMix(state: UInt64(arguments.int("seed", default: 42)))
    let began = monotonicNanos()
    do {
        let db = try SandboxStore.Connection(path: path)
        _ = try db.query("PRAGMA journal_mode")
        // Seeding is set-up, not the measurement: no fsync per batch, a cache big enough for the indexes,
        // statement journals (each insert fires the rollup triggers) in memory. The rows go through the
        // host's own triggers, so its hour and day totals are kept as its own writes keep them.
        try db.execute("PRAGMA synchronous = OFF")
        try db.execute("PRAGMA cache_size = -1000000")
        try db.execute("PRAGMA temp_store = MEMORY")
        guard try !db.query("SELECT 1 FROM terminals WHERE id = ?", [.text(terminal)]).isEmpty else {
            fail("\(path) has no terminal \(terminal): start the host once with the bench fixtures first")
        }
        guard try !db.query("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'transactions_rollup_insert'").isEmpty else {
            fail("\(path) has no rollup triggers (schema 6): start a host of this build on it first")
        }
        // Oldest first, so seq follows created_at as it does on a real host; spread evenly with jitter.
        let span = Int64(days) * 86_400_000
        let step = Double(span) / Double(max(rows, 1))
        var index = 0
        while index < rows {
            try db.execute("BEGIN IMMEDIATE")
            let statement = try db.cachedStatement(Rows.insertTransaction)
            for _ in 0..<min(batch, rows - index) {
                let offset = Int64(Double(index) * step + Double.random(in: 0..<step, using: &random))
                let createdAt = now - span + offset
                try statement.run(seedRow(terminal: terminal, merchant: merchant, currency: currency, createdAt: createdAt, &random))
                index += 1
            }
            try db.execute("COMMIT")
        }
        _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)")
    } catch {
        fail("seed: \(error)")
    }
    let seconds = Double(monotonicNanos() - began) / 1e9
    print(json(["rows": rows, "seconds": seconds, "rows_per_second": Double(rows) / seconds]))
}

// MARK: - raw-sqlite: the storage bound of a durable sale

/// Commits transaction rows for many threads.
protocol RowWriter: Sendable {
    func commit(_ values: [DatabaseValue]) throws
}

/// One connection shared by every thread, one transaction (and one WAL sync) per row, as the
/// host's Store shares its writer.
final class SharedWriter: RowWriter, @unchecked Sendable {
    private let lock = NSLock()
    private let db: SandboxStore.Connection
    init(_ db: SandboxStore.Connection) { self.db = db }
    func commit(_ values: [DatabaseValue]) throws {
        lock.lock()
        defer { lock.unlock() }
        try db.execute("BEGIN IMMEDIATE")
        do {
            try db.run(Rows.insertTransaction, values)
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}

/// Group commit: callers queue their rows; whoever finds no commit running takes every queued row
/// into one transaction, commits once (one WAL sync), and wakes the callers. Each caller returns
/// only after its row is durable, so the guarantee is the same as one commit per row.
final class GroupWriter: RowWriter, @unchecked Sendable {
    private final class Pending {
        let values: [DatabaseValue]
        var error: (any Error)?
        var done = false
        init(_ values: [DatabaseValue]) { self.values = values }
    }
    private let condition = NSCondition()
    private var queue: [Pending] = []
    private var committing = false
    private let db: SandboxStore.Connection
    init(_ db: SandboxStore.Connection) { self.db = db }

    func commit(_ values: [DatabaseValue]) throws {
        let mine = Pending(values)
        condition.lock()
        queue.append(mine)
        while !mine.done {
            if committing {
                condition.wait()
                continue
            }
            // Lead one batch: everything queued so far, ours included.
            let batch = queue
            queue = []
            committing = true
            condition.unlock()
            var failure: (any Error)?
            do {
                try db.execute("BEGIN IMMEDIATE")
                for pending in batch { try db.run(Rows.insertTransaction, pending.values) }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                failure = error
            }
            condition.lock()
            for pending in batch {
                pending.error = failure
                pending.done = true
            }
            committing = false
            condition.broadcast()
        }
        condition.unlock()
        if let error = mine.error { throw error }
    }
}

func rawSQLite(_ arguments: Arguments) {
    let source = arguments.required("schema-from")
    let path = arguments.required("db")
    let terminals = arguments.required("terminals").split(separator: ",").map(String.init)
    let merchant = arguments.required("merchant")
    let currency = arguments.string("currency") ?? "EUR"
    let grouped = arguments.string("group-commit") == "1"
    let writer: any RowWriter
    do {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let db = try SandboxStore.Connection(path: path)
        let mode: String = try db.query("PRAGMA journal_mode = WAL")[0][0]
        guard mode.lowercased() == "wal" else { fail("\(path): journal mode is \(mode), not WAL") }
        try db.execute("PRAGMA synchronous = FULL")
        // The host's own tables, indexes and triggers (the rollups a transaction row updates), and its
        // merchant and terminal rows (foreign keys are on).
        try db.execute("ATTACH DATABASE '\(source.replacingOccurrences(of: "'", with: "''"))' AS src")
        let ddl = try db.query(
            """
            SELECT sql FROM src.sqlite_master
            WHERE sql IS NOT NULL AND tbl_name IN ('merchants', 'terminals', 'transactions', 'transaction_hours', 'transaction_days')
            ORDER BY type = 'trigger', type = 'index', CASE tbl_name WHEN 'merchants' THEN 0 WHEN 'terminals' THEN 1 ELSE 2 END
            """)
        guard ddl.count >= 3 else { fail("\(source) has no transactions table: start the host on it first") }
        for row in ddl { try db.execute(try row[0] as String) }
        try db.execute("INSERT INTO main.merchants SELECT * FROM src.merchants")
        try db.execute("INSERT INTO main.terminals SELECT * FROM src.terminals")
        try db.execute("DETACH DATABASE src")
        writer = grouped ? GroupWriter(db) : SharedWriter(db)
    } catch {
        fail("raw-sqlite: \(error)")
    }
    let threads = arguments.int("threads", default: terminals.count)
    runLoad(
        label: grouped ? "raw-sqlite-group-commit" : "raw-sqlite", connections: threads, warmup: arguments.double("warmup", default: 1),
        duration: arguments.double("duration", default: 10), latenciesFile: arguments.string("latencies")
    ) { index in
        let terminal = terminals[index % terminals.count]
        return {
            // A cleared sale's row, as the host writes it: a fresh id, the card, the issuer's answer.
            var random = SystemRandomNumberGenerator()
            var row = seedRow(terminal: terminal, merchant: merchant, currency: currency, createdAt: wallMillis(), &random)
            row[3] = .text("AUTH")
            row[4] = .text("CLEARED")
            do {
                try writer.commit(row)
                return .ok
            } catch {
                return .failed("\(error)")
            }
        }
    }
}

// MARK: - raw-query and explain: the SQL of the history endpoints, in-process

/// A date range cut as Storage/Rollup.swift's `Rollup` cuts it (keep the two alike): rows at either
/// end, whole UTC hours and days between, read from `transaction_hours` / `transaction_days`.
enum Rollup {
    /// (table, time column) of each part, in SQL order.
    static let sources = [
        ("transactions", "created_at"), ("transaction_hours", "hour"), ("transaction_days", "day"), ("transaction_hours", "hour"),
        ("transactions", "created_at"),
    ]

    static func parts(from: Int64, to: Int64) -> [(Int64, Int64)] {
        let hour: Int64 = 3_600_000
        let start = max(from, 0)
        let end = min(to, 253_402_300_799_999) + 1
        let empty: (Int64, Int64) = (0, 0)
        guard start < end else { return Array(repeating: empty, count: 5) }
        let firstHour = (start + hour - 1) / hour
        let endHour = end / hour
        guard firstHour < endHour else { return [(start, end), empty, empty, empty, empty] }
        let firstDay = (firstHour + 23) / 24
        let endDay = endHour / 24
        let rows = ((start, firstHour * hour), (endHour * hour, end))
        return firstDay < endDay
            ? [rows.0, (firstHour, firstDay * 24), (firstDay, endDay), (endDay * 24, endHour), rows.1]
            : [rows.0, (firstHour, endHour), empty, empty, rows.1]
    }

    /// `select(index of source)` + one terminal and range per part, `UNION ALL`.
    static func union(where filters: String, _ select: (Int) -> String) -> String {
        sources.enumerated().map { index, source in
            select(index) + " FROM \(source.0) WHERE terminal_id = ? AND \(source.1) >= ? AND \(source.1) < ?" + filters
        }.joined(separator: " UNION ALL ")
    }

    static func values(terminal: String, from: Int64, to: Int64) -> [DatabaseValue] {
        parts(from: from, to: to).flatMap { [.text(terminal), .integer($0.0), .integer($0.1)] }
    }

    static func isRows(_ index: Int) -> Bool { index == 0 || index == 4 }

    static let count =
        "SELECT COALESCE(SUM(n), 0) AS n FROM (" + union(where: "") { isRows($0) ? "SELECT COUNT(*) AS n" : "SELECT SUM(n) AS n" } + ")"

    static func statistics(key: String, _ expression: (Int) -> String) -> String {
        "SELECT k AS \(key), SUM(amount) AS amount, SUM(n) AS n FROM ("
            + union(where: " AND type = 'AUTH' AND status IN ('CLEARED', 'REFUNDED')") {
                "SELECT \(expression($0)) AS k, amount, \(isRows($0) ? "1" : "n") AS n"
            } + ") GROUP BY k HAVING SUM(n) > 0 ORDER BY k"
    }

    static let daily = statistics(key: "day") { isRows($0) ? "created_at / 86400000" : $0 == 2 ? "day" : "hour / 24" }
    static let brand = statistics(key: "brand") { isRows($0) ? "COALESCE(card_brand, 'UNKNOWN')" : "card_brand" }
}

/// The statements one history endpoint runs, as Storage/TransactionRepository.swift writes them (no filters but
/// the terminal; statistics over [from, to]), with their values for a page.
func endpointStatements(_ name: String, terminal: String, from: Int64, to: Int64) -> [(String, @Sendable (Int) -> [DatabaseValue])] {
    let scope = "terminal_id = ? AND created_at >= ? AND created_at <= ?"
    let all: [DatabaseValue] = [.text(terminal), .integer(0), .integer(Int64.max)]
    let count = (Rollup.count, { @Sendable (_: Int) in Rollup.values(terminal: terminal, from: 0, to: Int64.max) })
    let window = Rollup.values(terminal: terminal, from: from, to: to)
    switch name {
    case "history":
        return [
            count,
            ("SELECT * FROM transactions WHERE " + scope + " ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?",
             { page in all + [.integer(20), .integer(Int64((page - 1) * 20))] }),
        ]
    case "count":
        return [count]
    case "stats-daily":
        return [(Rollup.daily, { _ in window })]
    case "stats-brand":
        return [(Rollup.brand, { _ in window })]
    case "latest-sale":
        // Payments.isCancellable, run by detail() for every cleared sale younger than 30 minutes.
        return [("SELECT id FROM transactions WHERE terminal_id = ? AND type = 'AUTH' ORDER BY seq DESC LIMIT 1", { _ in [.text(terminal)] })]
    default:
        fail("--query must be history, count, stats-daily, stats-brand or latest-sale")
    }
}

func window(_ arguments: Arguments) -> (from: Int64, to: Int64) {
    let to = Int64(arguments.string("to-ms") ?? "") ?? wallMillis()
    let from = Int64(arguments.string("from-ms") ?? "") ?? to - 90 * 86_400_000
    return (from, to)
}

func rawQuery(_ arguments: Arguments) {
    let path = arguments.required("db")
    let name = arguments.required("query")
    let (from, to) = window(arguments)
    let statements = endpointStatements(name, terminal: arguments.required("terminal"), from: from, to: to)
    let pages: ClosedRange<Int> = {
        let parts = (arguments.string("pages") ?? "1-1").split(separator: "-").compactMap { Int($0) }
        return parts.count == 2 ? parts[0]...parts[1] : 1...1
    }()
    let connections = arguments.int("connections", default: 1)
    let handles: [SharedQuery] = (0..<connections).map { _ in
        do { return SharedQuery(try SandboxStore.Connection(path: path, access: .readOnly)) } catch { fail("raw-query: \(error)") }
    }
    runLoad(
        label: "raw-" + name, connections: connections, warmup: arguments.double("warmup", default: 1),
        duration: arguments.double("duration", default: 3),
        warmupRequests: arguments.string("warmup-requests") == nil ? nil : arguments.int("warmup-requests", default: 1),
        latenciesFile: arguments.string("latencies")
    ) { index in
        let handle = handles[index]
        return {
            let page = Int.random(in: pages)
            do {
                try handle.run(statements.map { ($0.0, $0.1(page)) })
                return .ok
            } catch {
                return .failed("\(error)")
            }
        }
    }
}

/// Prints `EXPLAIN QUERY PLAN` of every statement of the history endpoints.
func explain(_ arguments: Arguments) {
    let (from, to) = window(arguments)
    let terminal = arguments.required("terminal")
    do {
        let db = try SandboxStore.Connection(path: arguments.required("db"), access: .readOnly)
        for name in ["history", "count", "stats-daily", "stats-brand", "latest-sale"] {
            for (sql, values) in endpointStatements(name, terminal: terminal, from: from, to: to) {
                print("\(name): \(sql)")
                for row in try db.query("EXPLAIN QUERY PLAN " + sql, values(1)) {
                    print("    " + (try row["detail"] as String))
                }
            }
        }
    } catch {
        fail("explain: \(error)")
    }
}

/// A read-only connection used by one thread only.
final class SharedQuery: @unchecked Sendable {
    private let db: SandboxStore.Connection
    init(_ db: SandboxStore.Connection) { self.db = db }
    func run(_ statements: [(String, [DatabaseValue])]) throws {
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        for (sql, values) in statements { _ = try db.query(sql, values) }
    }
}

// MARK: - main

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
switch arguments.command {
case "setup": setup(arguments)
case "sale": sale(arguments)
case "apm": apm(arguments)
case "blik": blik(arguments)
case "get": get(arguments)
case "seed": seed(arguments)
case "raw-sqlite": rawSQLite(arguments)
case "raw-query": rawQuery(arguments)
case "explain": explain(arguments)
default:
    fail("usage: bench-load setup|sale|apm|blik|get|seed|raw-sqlite|raw-query|explain [--option value …] (see bench/Tools/BenchLoad/main.swift)")
}
