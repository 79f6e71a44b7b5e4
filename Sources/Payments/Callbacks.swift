import Foundation

/// An app's object carried to the queue the SDK calls it on (``GeopagosSandbox/callbackQueue``);
/// it is used there only, as the app would use it.
struct AppObject<Object>: @unchecked Sendable {
    let object: Object

    init(_ object: Object) {
        self.object = object
    }
}

/// Calls the app where ``GeopagosSandbox/callbackQueue`` says.
package enum Callbacks {
    /// Runs `call` on `queue`, after what was sent there before; at once on this task when `queue` is nil.
    package static func deliver(on queue: DispatchQueue?, _ call: @escaping @Sendable () -> Void) {
        guard let queue else { return call() }
        queue.async(execute: call)
    }
}
