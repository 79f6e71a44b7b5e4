import CMicroHTTPD
import Foundation
import SandboxWire

/// What a request is refused for before a handler sees it: anything two readers of the same bytes
/// could take differently. libmicrohttpd hands its callers C strings, so a NUL byte ends a path or
/// header value early for the handler while the bytes after it were sent all the same; and it reads
/// a body by the first of two lengths, or by chunks when a length is given too (RFC 9112 §6.1: a
/// proxy in front may read it the other way and pass a second request hidden in the body).
///
/// A chunked body is refused too (411 Length Required, as S3 answers with `MissingContentLength`): the
/// library parses chunk framing where no handler sees it, and answers a chunk-size line longer than
/// its buffer with its own 500 page; a client's bytes must never cause a 5xx. Every body the
/// services take is small JSON, which every client sends with its length.
extension Server {
    func refusal(
        _ connection: OpaquePointer, _ exchange: Exchange, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?
    ) -> Response? {
        if let part = exchange.controlByteIn {
            return Self.invalid("The request \(part) holds a control byte.", field: part)
        }
        if let target = exchange.rawTarget, let version, version.pointee != 0,
            target + exchange.rawTargetLength + 1 != UnsafeRawPointer(version)
        {
            // The target as a C string stops before the space that precedes the version: a NUL cut it.
            return Self.invalid("The request path holds a NUL byte.", field: "path")
        }
        if let hidden = cmhd_head_hidden_header(connection, method, configuration.maxHeaderBytes) {
            let name = String(decoding: Array(String(cString: hidden).utf8).filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
            return Self.invalid(
                "The header \(name) holds a control byte or a NUL byte, or is folded over lines.", field: "header.\(name)")
        }
        var lengths: [Substring] = []
        var encodings: [Substring] = []
        Self.forEachFramingHeader(connection) { isLength, value in
            if isLength {
                lengths += value.split(separator: ",", omittingEmptySubsequences: false)
            } else {
                encodings += value.split(separator: ",", omittingEmptySubsequences: false)
            }
        }
        let trim = { (text: Substring) in text.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
        if !encodings.isEmpty {
            if !lengths.isEmpty {
                return Self.invalid(
                    "A request must not carry both Content-Length and Transfer-Encoding.", field: "header.Transfer-Encoding")
            }
            if encodings.count != 1 || trim(encodings[0]).lowercased() != "chunked" {
                return Self.invalid("Transfer-Encoding must be chunked, once.", field: "header.Transfer-Encoding")
            }
            return HTTPError(
                status: 411, code: .invalidRequest,
                message: "A request body needs a Content-Length; chunked bodies are not taken.",
                field: "header.Transfer-Encoding"
            ).response
        }
        if lengths.count > 1, Set(lengths.map(trim)).count > 1 {
            return Self.invalid("Content-Length is given more than once, with different values.", field: "header.Content-Length")
        }
        return nil
    }

    /// Which part of a request target holds a control byte, raw or percent-encoded: `path`, `query` or nil.
    static func controlByte(inTarget start: UnsafeRawPointer, length: Int) -> String? {
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: length)
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var part = "path"
        var index = 0
        while index < length {
            var byte = bytes[index]
            if byte == UInt8(ascii: "?") { part = "query" }
            if byte == UInt8(ascii: "%"), index + 2 < length, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                byte = high << 4 | low
                index += 2
            }
            if byte < 0x20 || byte == 0x7F { return part }
            index += 1
        }
        return nil
    }

    private static func invalid(_ message: String, field: String) -> Response {
        HTTPError.badRequest(message, code: .invalidRequest, field: field).response
    }

    /// Every `Content-Length` (true) and `Transfer-Encoding` (false) header's value, repeats apart.
    /// Names are compared as the C strings the library holds: a String is made only for these two
    /// headers, not for every header of every request.
    private static func forEachFramingHeader(_ connection: OpaquePointer, _ body: (Bool, String) -> Void) {
        withoutActuallyEscaping(body) { body in
            var visit = body
            withUnsafeMutablePointer(to: &visit) { pointer in
                _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let isLength = strcasecmp(key, "Content-Length") == 0
                    guard isLength || strcasecmp(key, "Transfer-Encoding") == 0 else { return .YES }
                    let visit = context.assumingMemoryBound(to: ((Bool, String) -> Void).self).pointee
                    visit(isLength, value.map { String(cString: $0) } ?? "")
                    return .YES
                }, pointer)
            }
        }
    }
}
