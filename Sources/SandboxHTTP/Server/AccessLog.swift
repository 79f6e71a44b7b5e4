import SandboxTime
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
    private let clock: any TimeSource
    private let lock = Mutex(())

    /// Appends to a file, creating it (and its folder) when missing.
    public convenience init(path: String, clock: any TimeSource) throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.init(descriptor: descriptor, ownsDescriptor: true, clock: clock)
    }

    /// Writes to standard error.
    public static func standardError(clock: any TimeSource) -> AccessLog {
        AccessLog(descriptor: 2, ownsDescriptor: false, clock: clock)
    }

    private init(descriptor: Int32, ownsDescriptor: Bool, clock: any TimeSource) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.clock = clock
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    func record(service: String, request: String, method: String, path: String, status: Int, bytes: Int, milliseconds: Double) {
        // Built as bytes, not through string interpolation and formatting: this runs once per request.
        var line: [UInt8] = []
        line.reserveCapacity(160 + path.utf8.count)
        line.append(contentsOf: #"{"ts":"#.utf8)
        // Rounded to the nearest millisecond, not down as the hosts' stored times are (a pinned format).
        Self.appendFixed(Int64((clock.now().timeIntervalSince1970 * 1000).rounded()), decimals: 3, to: &line)
        line.append(contentsOf: #","service":"#.utf8)
        Self.appendQuoted(service, to: &line)
        line.append(contentsOf: #","id":"#.utf8)
        Self.appendQuoted(request, to: &line)
        line.append(contentsOf: #","method":"#.utf8)
        Self.appendQuoted(method, to: &line)
        line.append(contentsOf: #","path":"#.utf8)
        Self.appendQuoted(path, to: &line)
        line.append(contentsOf: #","status":"#.utf8)
        line.append(contentsOf: String(status).utf8)
        line.append(contentsOf: #","bytes":"#.utf8)
        line.append(contentsOf: String(bytes).utf8)
        line.append(contentsOf: #","ms":"#.utf8)
        Self.appendFixed(Int64((milliseconds * 100).rounded()), decimals: 2, to: &line)
        line.append(contentsOf: "}\n".utf8)
        lock.withLock { _ in
            line.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }

    /// `value / 10^decimals` written with exactly `decimals` digits after the point (`1790000000.123`).
    static func appendFixed(_ value: Int64, decimals: Int, to line: inout [UInt8]) {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        if value < 0 { line.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        line.append(contentsOf: String(magnitude / UInt64(scale)).utf8)
        line.append(UInt8(ascii: "."))
        let fraction = String(magnitude % UInt64(scale))
        line.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals - fraction.utf8.count))
        line.append(contentsOf: fraction.utf8)
    }

    /// Appends a JSON string literal: paths come from clients and may hold quotes or control bytes.
    static func appendQuoted(_ text: String, to line: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        line.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20:
                line.append(contentsOf: Array(#"\u00"#.utf8))
                line.append(hex[Int(byte >> 4)])
                line.append(hex[Int(byte & 0xF)])
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }
}
