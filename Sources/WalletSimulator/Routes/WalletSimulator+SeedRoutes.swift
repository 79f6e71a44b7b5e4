import WalletRules
import WalletStorage
import Foundation
import SandboxHTTP
import SandboxWire

/// `POST /_sandbox/seed`: the wallet's part of a seed (``WalletSeed``): BLIK customers made or
/// changed and standing rules, in one write, or refused whole with the path of the first bad
/// field; `?dryRun=true` checks it and keeps nothing.
extension WalletSimulator {
    static func addSeedRoutes(to router: inout Router, book: OrderBook) {
        router.post("/_sandbox/seed") { request in
            let dryRun = try request.flag("dryRun")
            let seed = try request.decode(WalletSeed.self)
            if let parsed = try? JSONSerialization.jsonObject(with: Data(request.body)), let field = WalletSeed.unknownField(in: parsed) {
                throw WalletError.invalid("\(field) is not a field of a seed's wallet part (sandbox-data/seeds/seed.schema.json).", field: field)
            }
            let customers = try (seed.customers ?? []).enumerated().map { index, customer in
                try checked(customer, at: "customers[\(index)]", among: seed.customers ?? [])
            }
            let now = Date(milliseconds: book.now)
            let rules = try (seed.rules ?? []).enumerated().map { index, seeded in
                do {
                    return try rule(seeded, id: book.ids.next("rule"), now: now)
                } catch let error as any ServiceError {
                    throw WalletError(error.status, error.code, error.message, field: "rules[\(index)]" + (error.field.map { "." + $0 } ?? ""))
                }
            }
            let result = WalletSeedResult(customers: customers.map(\.customerId), rules: rules.map(\.ruleId))
            if dryRun { return .json(result) }
            try book.applySeed(customers: customers, rules: rules)
            return .json(result, status: 201)
        }
    }

    /// A seed's customer, every field checked.
    static func checked(_ customer: WalletBlik.Customer, at path: String, among all: [WalletBlik.Customer]) throws -> WalletBlik.Customer {
        _ = try Validate.identifier(customer.customerId, field: path + ".customerId")
        if all.filter({ $0.customerId == customer.customerId }).count > 1 {
            throw WalletError.invalid("Customer \(customer.customerId) is named more than once in the seed.", field: path + ".customerId")
        }
        for (value, name) in [(customer.name, "name"), (customer.bank, "bank")] {
            guard (1...64).contains(value.unicodeScalars.count), value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw WalletError.invalid("\(name) must be 1 to 64 printable characters.", field: path + "." + name)
            }
        }
        guard customer.currency.utf8.count == 3, customer.currency.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            throw WalletError.invalid("currency must be an ISO 4217 code such as PLN.", field: path + ".currency")
        }
        guard (0...1_000_000_000_000).contains(customer.balance) else {
            throw WalletError.invalid("balance must be from 0 to 1000000000000 (minor units).", field: path + ".balance")
        }
        guard (1...1_000_000_000_000).contains(customer.perPaymentLimit) else {
            throw WalletError.invalid("perPaymentLimit must be from 1 to 1000000000000 (minor units).", field: path + ".perPaymentLimit")
        }
        return customer
    }
}
