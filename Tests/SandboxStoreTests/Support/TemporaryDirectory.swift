import Foundation

/// A fresh directory for one test, removed when released: for tests that reopen a file.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/store-tests.XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard created else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside this directory (not created).
    func file(_ name: String) -> String { path + "/" + name }
}
