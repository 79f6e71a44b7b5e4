import Foundation

/// Where the device libraries call the app back (listeners, completions, notices): one rule for
/// every SDK of the package.
///
/// On Apple platforms the main queue, as the vendors' SDKs call a UI app (an app built with
/// main-actor isolation by default relies on it). Elsewhere the SDK's own task: a command-line tool
/// or a test may keep its main thread busy.
///
/// ```swift
/// AppCallbacks.deliver(on: configuration.callbackQueue) { completion(result) }
/// ```
public enum AppCallbacks {
    /// The main queue on Apple platforms, nil elsewhere: the libraries' default callback queue.
    public static var platformQueue: DispatchQueue? {
        #if canImport(Darwin)
        .main
        #else
        nil
        #endif
    }

    /// Runs `call` on `queue`, after what was sent there before; at once on this task when `queue` is nil.
    ///
    /// - Parameters:
    ///   - queue: A serial queue, so calls keep their order; nil: here and now.
    ///   - call: The call into the app.
    public static func deliver(on queue: DispatchQueue?, _ call: @escaping @Sendable () -> Void) {
        guard let queue else { return call() }
        queue.async(execute: call)
    }
}

/// An app's object carried to the queue the SDK calls it on; it is used there only, as the app
/// would use it.
package struct AppObject<Object>: @unchecked Sendable {
    package let object: Object

    package init(_ object: Object) {
        self.object = object
    }
}
