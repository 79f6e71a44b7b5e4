/// The error every ``TapToPay`` call throws.
///
/// Not frozen: a `switch` needs `@unknown default`. What the sandbox makes each case from is in
/// docs/monei.md ("The device library").
///
/// ```swift
/// do {
///     let result = try await TapToPay.acceptPayment(amount: 1050, orderId: "order-1", callbackUrl: callback)
/// } catch TapToPayError.outcomeUnknown(let orderId) {
///     showPending(orderId)   // do not retry: check this orderId in MONEI
/// } catch TapToPayError.busy {
///     // a payment is running
/// }
/// ```
public enum TapToPayError: Error, Sendable, Equatable, Hashable {
    /// The device does not support Tap to Pay on iPhone (iPhone XS or newer, iOS 18.5 or later).
    case notSupported
    /// The user did not allow location access, or Info.plist has no `NSLocationWhenInUseUsageDescription`.
    case locationDenied
    /// The merchant did not accept Apple's Tap to Pay on iPhone terms.
    case termsDeclined
    /// `amount` is not more than 0, `orderId` is empty, or MONEI refused a value of the request.
    case invalidArgument
    /// The POS token is older than 24 hours: get a new one from your server and call `prepare` again.
    case tokenExpired
    /// The POS token is not one MONEI issued (forged, cut, of another host).
    case invalidToken
    /// `acceptPayment` before a successful `prepare(token:)` in this launch.
    case notPrepared
    /// A payment is running; only one runs at a time.
    case busy
    /// The customer closed the card screen, or did not tap in time, or the app left the foreground.
    case cancelled
    /// MONEI no longer takes payments from this version of the SDK.
    case sdkUpgradeRequired
    /// The card was read and the answer did not come: the card can be charged. Do not retry; check
    /// this `orderId` in MONEI.
    case outcomeUnknown(orderId: String)
    /// The payment could not be taken; no card was charged.
    case paymentFailed(code: TapToPayErrorCode)
}

/// Why ``TapToPayError/paymentFailed(code:)``. Not frozen: a `switch` needs `@unknown default`.
public enum TapToPayErrorCode: Sendable, Equatable, Hashable {
    /// The card could not be used for the payment (the reader could not read it).
    case cardDeclined
    /// The reader could not be prepared or could not hand the card over.
    case readerNotReady
    /// The device got no location fix within 15 seconds.
    case locationTimeout
    case unknown
}
