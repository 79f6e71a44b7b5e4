import Synchronization

/// Set by an `async` caller's cancellation handler, read by the transfer's progress callback.
final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    func cancel() {
        state.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool {
        state.load(ordering: .relaxed)
    }
}
