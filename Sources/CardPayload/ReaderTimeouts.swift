/// The reader's time limits, shared by the device (which enforces them on its clock) and the
/// host (which announces them at prepare and enforces the payload lifetime on its clock).
///
/// ```swift
/// let age = clock.nowMilliseconds() - payload.readAt
/// let tooOld = age > ReaderTimeouts.payloadLifetimeMilliseconds   // → TIMEOUT
/// ```
public enum ReaderTimeouts {
    /// Seconds Apple's card screen waits for a tap before its Payment Timeout alert
    /// (Geopagos seed).
    public static let cardScreen: Double = 40
    /// Seconds a sealed payload stays valid after the card was read (Geopagos seed).
    public static let payloadLifetime: Double = 120
    /// ``payloadLifetime`` in milliseconds, the unit of `readAt`.
    public static let payloadLifetimeMilliseconds: Int64 = 120_000
    /// Seconds the customer has to enter a PIN (TapOnMobile seed's `TIMEOUT` status).
    public static let pin: Double = 60
    /// Seconds a location fix may take before `locationTimeout` (MONEI seed).
    public static let locationFix: Double = 15
}
