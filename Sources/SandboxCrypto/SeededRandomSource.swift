import Foundation

/// A deterministic ``RandomSource`` for tests: the same seed always yields the same bytes.
///
/// The stream is xoshiro256** seeded through SplitMix64. It is fast and well distributed
/// but **not** cryptographically secure: never give it to production code. The byte stream
/// does not depend on how it is split into calls, so `bytes(count: 3) + bytes(count: 5)`
/// equals `bytes(count: 8)` from a fresh source with the same seed.
///
/// It is a class so that a service holding it and the test that made it share one stream;
/// a lock makes it safe to use from several tasks.
///
/// ```swift
/// let random = SeededRandomSource(seed: 7)
/// let first = random.bytes(count: 16)
/// #expect(SeededRandomSource(seed: 7).bytes(count: 16) == first)
/// ```
public final class SeededRandomSource: RandomSource, @unchecked Sendable {
    // `state` and `pending` are guarded by `lock`.
    private let lock = NSLock()
    private var state: (UInt64, UInt64, UInt64, UInt64)
    private var pending: [UInt8] = []

    /// The seed this source was created with.
    public let seed: UInt64

    /// Creates a source whose stream is fixed by `seed`.
    ///
    /// - Parameter seed: Any value; different seeds give unrelated streams.
    public init(seed: UInt64) {
        self.seed = seed
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (nextSplitMix(), nextSplitMix(), nextSplitMix(), nextSplitMix())
    }

    public func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "SeededRandomSource.bytes(count:) needs a non-negative count")
        lock.lock()
        defer { lock.unlock() }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            if pending.isEmpty {
                var word = nextWord().littleEndian
                // Kept reversed, so the least significant byte is at the end and goes out first.
                pending = withUnsafeBytes(of: &word) { Array($0.reversed()) }
            }
            let take = min(pending.count, count - result.count)
            result += pending.suffix(take).reversed()
            pending.removeLast(take)
        }
        return result
    }

    /// The next xoshiro256** output; the caller holds `lock`.
    private func nextWord() -> UInt64 {
        func rotateLeft(_ value: UInt64, _ amount: UInt64) -> UInt64 {
            (value << amount) | (value >> (64 - amount))
        }
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotateLeft(state.3, 45)
        return result
    }
}

extension RandomSource where Self == SeededRandomSource {
    /// A deterministic source for tests; see ``SeededRandomSource``.
    ///
    /// - Parameter seed: The seed that fixes the stream.
    /// - Returns: A new source starting at the beginning of that stream.
    public static func seeded(_ seed: UInt64) -> SeededRandomSource {
        SeededRandomSource(seed: seed)
    }
}
