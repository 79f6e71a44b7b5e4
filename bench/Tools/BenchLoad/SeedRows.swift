import HostStorage
import Foundation
import SandboxStore
import SandboxWire

// MARK: - Transaction rows (seed and raw-sqlite)

/// What seeded and raw rows are made of.
enum Rows {
    static let hexDigits = Array("0123456789abcdef".utf8)

    static let seedCards: [(weight: Int, card: SeedCard)] = [
        (45, SeedCard(brand: "VISA", masked: "476173******0011", panHash: String(repeating: "a1", count: 32), expiry: "2812", country: "BE", aid: "A0000000031010", label: "VISA DEBIT")),
        (33, SeedCard(brand: "MASTERCARD", masked: "555555******0004", panHash: String(repeating: "b2", count: 32), expiry: "3012", country: "BE", aid: "A0000000041010", label: "MASTERCARD")),
        (12, SeedCard(brand: "MAESTRO", masked: "675964******8453", panHash: String(repeating: "c3", count: 32), expiry: "3012", country: "BE", aid: "A0000000043060", label: "MAESTRO")),
        (6, SeedCard(brand: "AMEX", masked: "374245*****1001", panHash: String(repeating: "d4", count: 32), expiry: "3012", country: "US", aid: "A00000002501", label: "AMERICAN EXPRESS")),
        (4, SeedCard(brand: "DISCOVER", masked: "601100******0004", panHash: String(repeating: "e5", count: 32), expiry: "3012", country: "US", aid: "A0000001523010", label: "DISCOVER")),
    ]

    /// (weight, type, status, response code, message)
    static let seedOutcomes: [(Int, TransactionType, TransactionStatus, String?, String)] = [
        (840, .AUTH, .CLEARED, "00", "Approved"),
        (30, .AUTH, .REFUNDED, "00", "Approved"),
        (30, .REFUND, .CLEARED, "00", "Approved"),
        (25, .AUTH, .DECLINED, "51", "Insufficient funds"),
        (20, .AUTH, .DECLINED, "05", "Do not honour"),
        (20, .AUTH, .TIMEOUT, nil, "Timed out"),
        (15, .AUTH, .USER_CANCELLED, nil, "Reader: cancelled"),
        (10, .AUTH, .CANCELLED, nil, "Cancelled"),
        (5, .AUTH, .TERMINAL_DECLINED, nil, "Card expired (declined by the reader kernel)"),
        (5, .AUTH, .ERROR, "96", "System malfunction"),
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

/// One realistic row of a terminal's history, created at `createdAt`, as the host's record
/// (`TransactionRecord.table` writes it, every column).
func seedRow(
    terminal: String, merchant: String, currency: String, createdAt: Int64, _ random: inout some RandomNumberGenerator
) -> TransactionRecord {
    let card = pick(Rows.seedCards.map { ($0.weight, $0.card) }, &random)
    let (_, type, status, code, message) = pick(Rows.seedOutcomes.map { ($0.0, $0) }, &random)
    let approved = code == "00"
    let hasCard = status != .TIMEOUT && status != .USER_CANCELLED
    let amount = Int.random(in: 1...400, using: &random) * 50
    let refunded = status == .REFUNDED
    var row = TransactionRecord(
        id: uuid(&random), terminalID: terminal, merchantID: merchant, type: type, status: status, amount: amount, tipAmount: nil,
        currency: currency, reference: nil, at: createdAt)
    row.updatedAt = createdAt + (refunded ? 3_600_000 : 0)
    if hasCard {
        (row.cardBrand, row.maskedPAN, row.panHash, row.cardExpiry) = (card.brand, card.masked, card.panHash, card.expiry)
        (row.cardCountry, row.aid, row.applicationLabel, row.cvm) = (card.country, card.aid, card.label, "none")
        row.cid = approved ? "40" : "00"
        row.cryptogram = upperHex(16, &random)
    }
    if approved { (row.authID, row.rrn) = (digits(6, &random), digits(12, &random)) }
    (row.responseCode, row.responseMessage) = (code, message)
    if type == .REFUND { row.originalID = uuid(&random) }
    if refunded { (row.refundedAt, row.refundedMaskedPAN, row.refundAmount) = (createdAt + 3_600_000, card.masked, amount) }
    return row
}
