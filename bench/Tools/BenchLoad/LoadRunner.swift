import Foundation
import SandboxHTTPClient
import Synchronization

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
