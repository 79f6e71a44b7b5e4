/// Receives the progress of ``Reader/prepare(token:)`` in real time (TapOnMobile
/// `PrepareDeviceListener`).
///
/// A prepare reports 0 first, then rising percentages up to 100, then ``onCompleted()``; or
/// ``onError(error:)`` where it stops. Listeners are called on the reader's actor, so keep
/// them short and thread-safe.
///
/// ```swift
/// final class ProgressBar: PrepareListener, @unchecked Sendable {
///     func onPercentageUpdated(percentage: Int) { print("Prepare device progress: \(percentage)%") }
///     func onCompleted() { print("Prepare device completed.") }
///     func onError(error: ReaderError) { print("Prepare device failure: \(error)") }
/// }
/// await reader.addListener(bar)
/// try await reader.prepare(token: token)
/// await reader.removeListener(bar)
/// ```
public protocol PrepareListener: AnyObject, Sendable {
    /// The prepare reached `percentage` (0…100).
    func onPercentageUpdated(percentage: Int)
    /// The prepare finished; the reader is ready.
    func onCompleted()
    /// The prepare failed with `error`.
    func onError(error: ReaderError)
}
