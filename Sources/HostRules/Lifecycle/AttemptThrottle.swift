import HostStorage
import SandboxStore
import Synchronization

/// Counts the wrong codes and secrets people type (back-office code, challenge code, registration
/// token, secure code), per client address and per device, and refuses every check of a key that
/// had too many in a sliding window, until the oldest of them leaves it.
///
/// Six digits are a small space: unthrottled, a loop found a live back-office code in 112 s. With
/// ``addressLimit`` one address tries 20 codes a minute, so the 10^6 codes take 34.7 days against a
/// code's ten-minute life (docs/terminal-lifecycle.md, "Throttled codes"). A lock is only a wait:
/// failures never touch the code itself, so its owner uses it once the lock passes (or at once,
/// from another address and device).
///
/// Times are the host's sandbox clock, so tests move the clock instead of sleeping. Memory is
/// bounded: each key keeps at most its limit of timestamps, each table at most ``capacity`` keys;
/// past that, keys that cannot get a row of their own share one (so a flood of new addresses or
/// devices throttles itself rather than pushing out what was counted).
///
/// ```swift
/// let throttle = AttemptThrottle()
/// let keys = [AttemptThrottle.Key.address("127.0.0.2")]
/// if let wait = throttle.wait(keys, at: now) { throw LifecycleError.tooManyAttempts(retryAfter: wait) }
/// // … the check fails:
/// throttle.recordFailure(keys, at: now)
/// ```
package final class AttemptThrottle: Sendable {
    /// At most `failures` wrong attempts in any `window` milliseconds.
    package struct Limit: Sendable, Equatable {
        package let failures: Int
        package let window: Int64
    }

    /// Who typed: the peer address of the connection, or the `deviceId` the request names.
    package enum Key: Hashable, Sendable {
        case address(String)
        case device(String)
    }

    /// 20 wrong codes a minute per client address: a person who mistypes is never stopped, a loop is.
    package static let addressLimit = Limit(failures: 20, window: 60_000)
    /// 5 wrong codes a minute per device (devices behind one address also count towards it).
    package static let deviceLimit = Limit(failures: 5, window: 60_000)
    /// Keys kept per table (addresses, devices) before new ones share the overflow row.
    package static let capacity = 4096

    /// The failures of one kind of key, the latest `limit.failures` of each.
    private struct Table {
        package let limit: Limit
        package var failures: [String: [Int64]] = [:]
        /// The row shared by keys that found the table full.
        package var overflow: [Int64] = []

        package init(limit: Limit) { self.limit = limit }

        /// Milliseconds until `key` may try again, or nil when it may now.
        package func wait(_ key: String, at now: Int64) -> Int64? {
            Self.wait(failures[key] ?? (failures.count >= AttemptThrottle.capacity ? overflow : []), limit, at: now)
        }

        package static func wait(_ times: [Int64], _ limit: Limit, at now: Int64) -> Int64? {
            guard times.count >= limit.failures, let oldest = times.first else { return nil }
            let until = oldest + limit.window
            return until > now ? until - now : nil
        }

        package mutating func record(_ key: String, at now: Int64) {
            if failures[key] == nil, failures.count >= AttemptThrottle.capacity {
                // Rows whose every failure left the window count for nothing: make room.
                failures = failures.filter { _, times in (times.last ?? 0) + limit.window > now }
            }
            if failures[key] == nil, failures.count >= AttemptThrottle.capacity {
                Self.append(now, to: &overflow, limit)
            } else {
                Self.append(now, to: &failures[key, default: []], limit)
            }
        }

        package static func append(_ time: Int64, to times: inout [Int64], _ limit: Limit) {
            times.append(time)
            if times.count > limit.failures { times.removeFirst(times.count - limit.failures) }
        }
    }

    private struct State {
        package var addresses: Table
        package var devices: Table

        /// The table of `key`'s kind and the key's name in it.
        package mutating func with<T>(_ key: Key, _ body: (inout Table, String) -> T) -> T {
            switch key {
            case .address(let address): body(&addresses, address)
            case .device(let device): body(&devices, device)
            }
        }
    }

    package let addressLimit: Limit
    package let deviceLimit: Limit
    private let state: Mutex<State>
    /// Replicas on one PostgreSQL database count in it (`attempt_failures`), so that guesses
    /// spread over them are throttled as one; nil: in this process's memory.
    private let shared: Store?

    package init(address: Limit = AttemptThrottle.addressLimit, device: Limit = AttemptThrottle.deviceLimit, shared: Store? = nil) {
        addressLimit = address
        deviceLimit = device
        state = Mutex(State(addresses: Table(limit: address), devices: Table(limit: device)))
        self.shared = shared
    }

    /// The limit and the stored name of a key's kind.
    private func kind(_ key: Key) -> (name: String, key: String, limit: Limit) {
        switch key {
        case .address(let address): ("address", address, addressLimit)
        case .device(let device): ("device", device, deviceLimit)
        }
    }

    /// Milliseconds until every one of `keys` may try again (the longest wait), or nil when all may now.
    package func wait(_ keys: [Key], at now: Int64) -> Int64? {
        if let shared {
            // A database that cannot be read throttles nothing rather than refusing everyone.
            return try? shared.read { db in
                try keys.compactMap { key -> Int64? in
                    let (kind, name, limit) = kind(key)
                    let times = try db.attempts.failures(kind: kind, key: name, after: now - limit.window, limit: limit.failures)
                    return Table.wait(times.reversed(), limit, at: now)
                }.max()
            } ?? nil
        }
        return state.withLock { state in
            keys.compactMap { key in state.with(key) { table, name in table.wait(name, at: now) } }.max()
        }
    }

    /// One wrong code or secret from `keys`.
    package func recordFailure(_ keys: [Key], at now: Int64) {
        if let shared {
            let window = max(addressLimit.window, deviceLimit.window)
            try? shared.write { db in
                for key in keys {
                    let (kind, name, _) = kind(key)
                    try db.attempts.record(kind: kind, key: name, at: now)
                }
                try db.attempts.prune(before: now - window)
            }
            return
        }
        state.withLock { state in
            for key in keys { state.with(key) { table, name in table.record(name, at: now) } }
        }
    }

    /// `POST /_sandbox/reset`: the codes are gone, and what was counted against them with them.
    package func reset() {
        // Shared: the database's reset empties attempt_failures with the rest.
        state.withLock { state in
            state.addresses.failures.removeAll()
            state.addresses.overflow.removeAll()
            state.devices.failures.removeAll()
            state.devices.overflow.removeAll()
        }
    }
}
