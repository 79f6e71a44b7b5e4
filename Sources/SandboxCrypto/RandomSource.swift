import Foundation

/// A source of random bytes that services take as a dependency.
///
/// Production code is given ``LiveRandomSource`` (backed by ``SecureRandom``); tests pass a
/// ``SeededRandomSource`` so that generated IDs, codes, keys and nonces are the same on every
/// run. Write services against this protocol, never against `SecureRandom` or
/// `SystemRandomNumberGenerator` directly.
///
/// ```swift
/// struct BLIKCodeIssuer {
///     let random: any RandomSource
///     func nextCode() -> String {
///         String(format: "%06d", random.int(in: 0...999_999))
///     }
/// }
/// let issuer = BLIKCodeIssuer(random: SeededRandomSource(seed: 42))
/// ```
public protocol RandomSource: Sendable {
    /// `count` random bytes.
    ///
    /// - Parameter count: How many bytes; zero or more.
    /// - Returns: Exactly `count` bytes.
    func bytes(count: Int) -> [UInt8]
}

extension RandomSource {
    /// A random 64-bit value, from eight bytes read little-endian.
    ///
    /// - Returns: A uniformly distributed `UInt64`.
    public func uint64() -> UInt64 {
        bytes(count: 8).reversed().reduce(0) { ($0 << 8) | UInt64($1) }
    }

    /// A uniformly distributed integer in `range`, without modulo bias.
    ///
    /// ```swift
    /// let pin = random.int(in: 0...9999)
    /// ```
    ///
    /// - Parameter range: The closed range to draw from.
    /// - Returns: An integer in `range`.
    public func int(in range: ClosedRange<Int>) -> Int {
        var generator = makeGenerator()
        return Int.random(in: range, using: &generator)
    }

    /// A uniformly distributed integer in `range`, without modulo bias.
    ///
    /// - Parameter range: The half-open range to draw from; must not be empty.
    /// - Returns: An integer in `range`.
    public func int(in range: Range<Int>) -> Int {
        var generator = makeGenerator()
        return Int.random(in: range, using: &generator)
    }

    /// A `RandomNumberGenerator` drawing from this source, for the standard library's
    /// `random(in:using:)`, `shuffled(using:)` and `randomElement(using:)`.
    ///
    /// ```swift
    /// var generator = random.makeGenerator()
    /// let card = testCards.randomElement(using: &generator)
    /// ```
    ///
    /// - Returns: A generator that reads eight bytes of this source per value.
    public func makeGenerator() -> RandomSourceGenerator {
        RandomSourceGenerator(source: self)
    }
}

/// A `RandomNumberGenerator` over a ``RandomSource``; made by ``RandomSource/makeGenerator()``.
///
/// ```swift
/// var generator = random.makeGenerator()
/// let delay = Double.random(in: 0.1...0.5, using: &generator)
/// ```
public struct RandomSourceGenerator: RandomNumberGenerator {
    private let source: any RandomSource

    init(source: any RandomSource) {
        self.source = source
    }

    public mutating func next() -> UInt64 {
        source.uint64()
    }
}

/// The production ``RandomSource``: bytes from ``SecureRandom`` (OpenSSL `RAND_bytes`).
///
/// Small draws come from a 4 KB block fetched from `RAND_bytes` at once and handed out in order,
/// each byte once (and wiped from the block as it goes): a sale draws a dozen small values (ids,
/// codes), and each `RAND_bytes` call cost more than the draw itself, on the store's one writer
/// thread that every sale waits for.
///
/// ```swift
/// let issuer = BLIKCodeIssuer(random: LiveRandomSource())
/// ```
public struct LiveRandomSource: RandomSource {
    /// Creates the live source; the block it draws from is shared by every instance.
    public init() {}

    public func bytes(count: Int) -> [UInt8] {
        guard count <= Block.size / 16 else { return SecureRandom.bytes(count: count) }
        return Self.block.take(count)
    }

    private static let block = Block()

    /// Under an `NSLock` (a pthread mutex): with Synchronization's `Mutex` here, the 32 threads
    /// of the bench generator, all drawing from this block, ran at half the rate (measured).
    private final class Block: @unchecked Sendable {
        static let size = 4096
        private let lock = NSLock()
        private var bytes = [UInt8](repeating: 0, count: size)
        private var next = size

        func take(_ count: Int) -> [UInt8] {
            lock.lock()
            defer { lock.unlock() }
            if Self.size - next < count {
                bytes = SecureRandom.bytes(count: Self.size)
                next = 0
            }
            let start = next
            next += count
            return bytes.withUnsafeMutableBufferPointer { block in
                let drawn = Array(block[start..<start + count])
                block.baseAddress!.advanced(by: start).update(repeating: 0, count: count)  // handed out once
                return drawn
            }
        }
    }
}

extension RandomSource where Self == LiveRandomSource {
    /// The production source, backed by ``SecureRandom``.
    public static var live: LiveRandomSource { LiveRandomSource() }
}
