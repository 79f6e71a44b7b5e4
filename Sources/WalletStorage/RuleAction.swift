/// What the wallet does with an order (or a refund) on its own: a standing rule's `action` and
/// an amount rule's `outcome`.
public enum RuleAction: String, Codable, Sendable, Equatable, CaseIterable {
    /// Pay the order (scan first), or let a refund succeed.
    case approve
    /// Decline with the rule's reason (an order or a refund).
    case decline
    /// Let the order expire.
    case expire
    /// Mark the order scanned, then do nothing more: the host's `apmTimeout` ends it.
    case scanOnly
}
