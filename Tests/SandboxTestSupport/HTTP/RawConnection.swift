import Foundation

/// A plain TCP connection for tests that must send bytes no HTTP client would: garbage,
/// `..` paths, oversized headers, many keep-alive connections held open at once.
///
/// It reads a response only as far as a test needs: status line, headers, and a body of
/// `Content-Length` bytes.
public final class RawConnection {
    public struct Response {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Closed: Error {}

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// - Parameter source: the local address to connect from (`127.0.0.2` plays a second client).
    public init(port: UInt16, timeoutSeconds: Int = 10, source: String? = nil) throws {
        descriptor = Sockets.tcp()
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            // No close here: the connection is fully initialized, so a throw runs `deinit`, which
            // closes it; a second close would close whatever socket reused the number meanwhile
            // (a server's listening socket, which libmicrohttpd then aborts on).
            guard bound == 0 else { throw Closed() }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw Closed() }  // `deinit` closes it, once
    }

    deinit { close(descriptor) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Sockets.sendFlags) }
            guard sent > 0 else { throw Closed() }
            offset += sent
        }
    }

    /// Reads one response; throws `Closed` when the server closed the connection first.
    public func readResponse() throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.indices.dropLast(3).first { buffer[$0..<$0 + 4].elementsEqual(separator) }
            if headerEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let start = headerEnd! + 4
        while buffer.count < start + length { try fill() }
        let body = Array(buffer[start..<start + length])
        buffer.removeFirst(start + length)
        return Response(status: status, headers: headers, body: body)
    }

    /// True when the server has closed its side (reads end of stream).
    public func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    /// True when the server ended the connection, by a close or a reset; false when it is still
    /// open (the read timed out) or sent more bytes.
    public func isClosedOrResetByPeer() -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { throw Closed() }
        buffer.append(contentsOf: chunk[..<count])
    }
}
