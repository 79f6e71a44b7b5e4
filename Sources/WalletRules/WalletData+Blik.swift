import WalletStorage
import Foundation
import SandboxWire

extension WalletData {
    /// The `blik` section of `wallet.json` (docs/blik.md): the bank's customers, how long a code
    /// and a confirmation request live, the code table for CI and the amounts that pick an outcome.
    public struct Blik: Sendable, Equatable {
        /// How long a code the bank app issued can be used (120 s).
        public var codeLifetimeSeconds: Int
        /// How long the customer has to answer a confirmation request (60 s).
        public var confirmationSeconds: Int
        /// The fixtures: the balances the wallet starts with (and returns to on reset).
        public var customers: [WalletBlik.Customer]
        public var codes: [CodeRule]
        /// The major-unit amount whose hundredths pick an outcome on approval (44).
        public var trigger: Int
        public var rules: [AmountRule]

        public init(
            codeLifetimeSeconds: Int = 120, confirmationSeconds: Int = 60, customers: [WalletBlik.Customer] = [], codes: [CodeRule] = [],
            trigger: Int = 44, rules: [AmountRule] = []
        ) {
            self.codeLifetimeSeconds = codeLifetimeSeconds
            self.confirmationSeconds = confirmationSeconds
            self.customers = customers
            self.codes = codes
            self.trigger = trigger
            self.rules = rules
        }

        /// What a code of the table does once a host sends it.
        public enum CodeOutcome: String, Codable, Sendable, Equatable {
            /// Approved `afterSeconds` after the payment was made, no page involved.
            case approve
            /// Declined with `reason`.
            case decline
            /// Nobody answers: the host's `blikTimeout` ends the payment.
            case noAnswer
        }

        /// One `codes` entry: an exact `code` (with its `verificationCode` when it has 9 digits),
        /// or every code of `length` digits that starts with `prefix`; an `outcome`, or an `error`
        /// the code is refused with at once.
        public struct CodeRule: Codable, Sendable, Equatable {
            public var code: String?
            public var prefix: String?
            public var length: Int?
            public var verificationCode: String?
            public var outcome: CodeOutcome?
            public var reason: APMDeclineReason?
            public var afterSeconds: Double?
            /// `blik_code_expired`, `blik_code_used`, `blik_code_unknown` or `blik_verification_failed`.
            public var error: String?

            public init(
                code: String? = nil, prefix: String? = nil, length: Int? = nil, verificationCode: String? = nil,
                outcome: CodeOutcome? = nil, reason: APMDeclineReason? = nil, afterSeconds: Double? = nil, error: String? = nil
            ) {
                self.code = code
                self.prefix = prefix
                self.length = length
                self.verificationCode = verificationCode
                self.outcome = outcome
                self.reason = reason
                self.afterSeconds = afterSeconds
                self.error = error
            }

            package func matches(_ payCode: String) -> Bool {
                if let code { return code == payCode }
                guard let prefix, let length else { return false }
                return payCode.count == length && payCode.hasPrefix(prefix)
            }
        }

        /// The table's entry for a code, if any.
        package func rule(for payCode: String) -> CodeRule? { codes.first { $0.matches(payCode) } }

        package static let refusals = ["blik_code_expired", "blik_code_used", "blik_code_unknown", "blik_verification_failed"]

        /// Decodes and checks the section.
        package static func decode(_ file: File, name: String) throws -> Blik {
            let lifetime = file.codeLifetimeSeconds ?? 120
            let confirmation = file.confirmationSeconds ?? 60
            guard (1...86_400).contains(lifetime) else { throw WalletDataError(description: "\(name): blik.codeLifetimeSeconds must be from 1 to 86400") }
            guard (1...86_400).contains(confirmation) else { throw WalletDataError(description: "\(name): blik.confirmationSeconds must be from 1 to 86400") }
            var ids = Set<String>()
            for customer in file.customers ?? [] {
                guard ids.insert(customer.customerId).inserted else {
                    throw WalletDataError(description: "\(name): blik customer '\(customer.customerId)' appears twice")
                }
                guard customer.balance >= 0, customer.perPaymentLimit > 0 else {
                    throw WalletDataError(description: "\(name): blik customer '\(customer.customerId)' needs a balance of 0 or more and a positive perPaymentLimit")
                }
            }
            for rule in file.codes ?? [] {
                let label = rule.code ?? "\(rule.prefix ?? "?")…"
                guard (rule.code != nil) != (rule.prefix != nil && rule.length != nil) else {
                    throw WalletDataError(description: "\(name): blik code '\(label)' needs either code, or prefix and length")
                }
                guard (rule.outcome != nil) != (rule.error != nil) else {
                    throw WalletDataError(description: "\(name): blik code '\(label)' needs exactly one of outcome and error")
                }
                if let error = rule.error, !refusals.contains(error) {
                    throw WalletDataError(description: "\(name): blik code '\(label)' has error '\(error)', not one of \(refusals.joined(separator: ", "))")
                }
                if rule.outcome == .decline, rule.reason == nil {
                    throw WalletDataError(description: "\(name): blik code '\(label)' declines without a reason")
                }
                if let code = rule.code, code.count == 9, rule.verificationCode == nil {
                    throw WalletDataError(description: "\(name): blik code '\(label)' has 9 digits and no verificationCode")
                }
            }
            var seen = Set<String>()
            for rule in file.rules ?? [] {
                guard rule.digits.count == 2, rule.digits.allSatisfy(\.isASCIIDigit), seen.insert(rule.digits).inserted,
                    rule.outcome == .decline, rule.reason != nil
                else {
                    throw WalletDataError(description: "\(name): blik rules digits '\(rule.digits)' must be two digits, once, declining with a reason")
                }
            }
            return Blik(
                codeLifetimeSeconds: lifetime, confirmationSeconds: confirmation, customers: file.customers ?? [], codes: file.codes ?? [],
                trigger: file.triggerAmounts?["default"] ?? 44, rules: file.rules ?? [])
        }

        /// The section as the file spells it.
        package struct File: Decodable {
            package let codeLifetimeSeconds: Int?
            package let confirmationSeconds: Int?
            package let customers: [WalletBlik.Customer]?
            package let codes: [CodeRule]?
            package let triggerAmounts: [String: Int]?
            package let rules: [AmountRule]?
        }
    }
}
