import Foundation

/// A value behind a pthread reader-writer lock: any number of readers at once, one writer alone.
/// For state read on every request and changed rarely, where a mutex makes readers on a loaded
/// machine queue and sleep behind each other.
///
/// ```swift
/// let names = ReadMostly<[String: String]>([:])
/// names.write { $0["T1"] = "Till 1" }
/// let name = names.read { $0["T1"] }
/// ```
public final class ReadMostly<Value>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    public func read<R>(_ body: (Value) -> R) -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body(value)
    }

    public func write(_ body: (inout Value) -> Void) {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        body(&value)
    }
}
