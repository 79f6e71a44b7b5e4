/// The request bodies of the back-office and merchant calls that `tapsim` makes the way the
/// merchant portal and a merchant's backend make them (docs/terminal-lifecycle.md). Absent
/// optionals are left out when written.
///
/// ```swift
/// BackOfficeBodies.Confirm(challengeCode: "ABCD-EFGH", terminalId: "EU-T0101", merchantId: nil)
/// // {"challengeCode":"ABCD-EFGH","terminalId":"EU-T0101"}  →  POST /backoffice/v1/challenges/confirm
/// ```
public enum BackOfficeBodies {
    /// `POST /backoffice/v1/registration-tokens` and `POST /merchant/v1/registration-tokens`:
    /// a token for this terminal, mailed to `email` when one is given.
    public struct IssueToken: Codable, Sendable, Equatable {
        public let terminalId: String
        public let email: String?
        public init(terminalId: String, email: String?) {
            self.terminalId = terminalId
            self.email = email
        }
    }

    /// `POST /backoffice/v1/challenges/confirm`: the device's challenge code for a terminal, or
    /// for the merchant's first free one.
    public struct Confirm: Codable, Sendable, Equatable {
        public let challengeCode: String
        public let terminalId: String?
        public let merchantId: String?
        public init(challengeCode: String, terminalId: String?, merchantId: String?) {
            self.challengeCode = challengeCode
            self.terminalId = terminalId
            self.merchantId = merchantId
        }
    }
}
