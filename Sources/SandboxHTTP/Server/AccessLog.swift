import Foundation
import SandboxCore
import Synchronization

/// One JSON object per answered request, appended to a file or a standard stream.
///
/// ```
/// {"ts":1790000000.123,"service":"EU","id":"req_3f2a…","method":"GET","path":"/healthz","status":200,"bytes":52,"ms":0.21}
/// ```
///
/// Lines are written whole under a lock so that lines of concurrent requests never interleave.
public final class AccessLog: Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let clock: any Clock
    private let lock = Mutex(())

    /// Appends to a file, creating it (and its folder) when missing.
    public convenience init(path: String, clock: any Clock) throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.init(descriptor: descriptor, ownsDescriptor: true, clock: clock)
    }

    /// Writes to standard error.
    public static func standardError(clock: any Clock) -> AccessLog {
        AccessLog(descriptor: 2, ownsDescriptor: false, clock: clock)
    }

    private init(descriptor: Int32, ownsDescriptor: Bool, clock: any Clock) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.clock = clock
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    func record(service: String, request: String, method: String, path: String, status: Int, bytes: Int, milliseconds: Double) {
        let timestamp = (clock.now().timeIntervalSince1970 * 1000).rounded() / 1000
        let ms = (milliseconds * 100).rounded() / 100
        let line = #"{"ts":\#(timestamp),"service":\#(Self.quoted(service)),"id":\#(Self.quoted(request)),"method":\#(Self.quoted(method)),"path":\#(Self.quoted(path)),"status":\#(status),"bytes":\#(bytes),"ms":\#(ms)}"#
            + "\n"
        var bytes = Array(line.utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { break }
                offset += written
            }
        }
        bytes.removeAll()
    }

    /// A JSON string literal: paths come from clients and may hold quotes or control bytes.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
