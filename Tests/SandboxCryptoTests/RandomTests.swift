import Foundation
import Synchronization
import Testing
@testable import SandboxCrypto

@Suite("Randomness")
struct RandomTests {
    @Test("Secure random bytes have the asked length", arguments: [0, 1, 12, 32, 1000])
    func secureLength(count: Int) {
        #expect(SecureRandom.bytes(count: count).count == count)
        #expect(LiveRandomSource().bytes(count: count).count == count)
    }

    @Test("Secure random bytes differ between calls and are not all zero")
    func secureDiffer() {
        let first = SecureRandom.bytes(count: 32)
        let second = SecureRandom.bytes(count: 32)
        #expect(first != second)
        #expect(first != [UInt8](repeating: 0, count: 32))
        #expect(LiveRandomSource().bytes(count: 16) != LiveRandomSource().bytes(count: 16))
    }

    @Test("Secure random bytes use the whole byte range")
    func secureSpread() {
        // 64 KiB of uniform bytes miss a given value with probability (255/256)^65536 ≈ 1e-112.
        #expect(Set(SecureRandom.bytes(count: 65_536)).count == 256)
    }

    @Test("The live source hands each byte of its block out once, across blocks and threads, and spreads over every value")
    func liveDrawsAreNeverRepeated() {
        // 4 threads × 1,000 draws of 16 bytes: 16 blocks of 4 KB. A byte handed out twice would
        // repeat a 16-byte draw, which random draws do with probability about 1e-31.
        let draws = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            var mine: [[UInt8]] = []
            for _ in 0..<1_000 { mine.append(LiveRandomSource().bytes(count: 16)) }
            draws.withLock { $0 += mine }
        }
        let all = draws.withLock { $0 }
        #expect(all.count == 4_000)
        #expect(Set(all).count == all.count)
        #expect(Set(all.joined()).count == 256)
        #expect(!all.contains([UInt8](repeating: 0, count: 16)), "a wiped byte was handed out")
    }

    @Test("A seeded source is reproducible and independent of how reads are split")
    func seededReproducible() {
        let whole = SeededRandomSource(seed: 1234).bytes(count: 100)
        let split = SeededRandomSource(seed: 1234)
        let pieces = split.bytes(count: 3) + split.bytes(count: 0) + split.bytes(count: 13) + split.bytes(count: 84)
        #expect(pieces == whole)
        #expect(SeededRandomSource(seed: 1235).bytes(count: 100) != whole)
        #expect(SeededRandomSource(seed: 1234).seed == 1234)
    }

    @Test("A seeded source's stream is pinned (xoshiro256** over SplitMix64, seed 0)")
    func seededGolden() {
        // Changing the generator would change every recorded fixture that depends on it.
        let random = SeededRandomSource(seed: 0)
        #expect(Hex.encode(random.bytes(count: 16)) == "b4f275cb365fec992a455649781f6ebf")
        #expect(SeededRandomSource(seed: 0).uint64() == 0x99ec_5f36_cb75_f2b4)
    }

    @Test("Integers drawn from a source stay in range and are reproducible")
    func integersInRange() {
        let random: any RandomSource = SeededRandomSource(seed: 9)
        let values = (0..<1000).map { _ in random.int(in: 0...9) }
        #expect(values.allSatisfy { (0...9).contains($0) })
        #expect(Set(values).count == 10)
        let again = SeededRandomSource(seed: 9)
        #expect((0..<1000).map { _ in again.int(in: 0...9) } == values)
        #expect((0..<100).allSatisfy { _ in (5..<7).contains(random.int(in: 5..<7)) })
    }

    @Test("The generator adapter works with the standard library")
    func generatorAdapter() {
        var first = SeededRandomSource(seed: 5).makeGenerator()
        var second = SeededRandomSource(seed: 5).makeGenerator()
        let deck = Array(1...52)
        #expect(deck.shuffled(using: &first) == deck.shuffled(using: &second))
    }

    @Test("Static factories build the expected sources")
    func factories() {
        func draw(_ source: some RandomSource) -> [UInt8] { source.bytes(count: 8) }
        #expect(draw(.seeded(3)) == SeededRandomSource(seed: 3).bytes(count: 8))
        #expect(draw(.live).count == 8)
    }

    @Test("A seeded source can be shared between tasks")
    func seededConcurrent() async {
        let random = SeededRandomSource(seed: 77)
        let chunks = await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { random.bytes(count: 64) } }
            return await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        // Every byte of the stream was handed out exactly once, whatever the interleaving.
        #expect(chunks.flatMap { $0 }.sorted() == SeededRandomSource(seed: 77).bytes(count: 512).sorted())
    }
}
