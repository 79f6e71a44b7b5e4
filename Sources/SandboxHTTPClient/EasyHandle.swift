import CCurl

/// Owns one libcurl easy handle, its error buffer, and the state of the transfer running on it.
///
/// A handle runs one transfer at a time. Between transfers it waits in the client's idle pool,
/// keeping its keep-alive connections: reusing the handle is what reuses the connection.
/// libcurl callbacks receive `Unmanaged.passUnretained(self)` and come back through
/// ``from(_:)``; they run on the thread inside `curl_easy_perform`, so the transfer state
/// below is only ever touched by that one thread.
final class EasyHandle {
    private let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    private var responseBody: [UInt8] = []
    private var responseHeaders: [HTTPClientHeaders.Field] = []
    private var bodyLimit = 0
    private var bodyLimitExceeded = false
    private var cancellation: CancellationFlag?

    /// Creates a fresh handle with no connections.
    ///
    /// - Throws: ``HTTPClientError/transport`` when libcurl cannot start or allocate a handle.
    init() throws(HTTPClientError) {
        try CurlGlobal.ensureInitialized()
        guard let raw = curl_easy_init() else {
            throw HTTPClientError.transport.with(message: "curl_easy_init failed")
        }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// The handle a callback's user-data pointer was made from.
    static func from(_ pointer: UnsafeMutableRawPointer?) -> EasyHandle {
        guard let pointer else { preconditionFailure("libcurl callback without user data") }
        return Unmanaged<EasyHandle>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs one request to completion on this handle.
    ///
    /// - Parameters:
    ///   - request: The request; its URL has already been validated.
    ///   - configuration: The client's limits and identity.
    ///   - cancellation: Checked by the progress callback; `nil` for synchronous callers.
    ///   - pin: The checked address and port to connect to whatever the URL's host resolves to
    ///     now (`CURLOPT_CONNECT_TO`); TLS still names and verifies the URL's host.
    /// - Returns: The final response.
    /// - Throws: ``HTTPClientError`` for anything but a complete response.
    func perform(
        _ request: HTTPClientRequest,
        configuration: HTTPClient.Configuration,
        cancellation: CancellationFlag?,
        pinnedTo pin: (address: IPAddress, port: Int)? = nil
    ) throws(HTTPClientError) -> HTTPClientResponse {
        // Reset drops the previous request's options but keeps live connections.
        curl_easy_reset(raw)
        bodyLimit = max(0, configuration.maxResponseBodySize)
        bodyLimitExceeded = false
        self.cancellation = cancellation
        errorBuffer[0] = 0
        defer {
            // The next transfer starts empty, and an idle handle does not pin the last body.
            responseBody = []
            responseHeaders = []
            self.cancellation = nil
        }

        let headerList = try Self.makeHeaderList(for: request)
        defer { curl_slist_free_all(headerList) }
        try configure(for: request, configuration: configuration, headerList: headerList)
        // "::address:port": any host and port of the URL connects there. A pooled connection is
        // reused only for the same target, so an earlier unpinned one is never taken instead.
        var connectTo: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(connectTo) }
        if let pin {
            guard let list = curl_slist_append(nil, "::\(pin.address.urlHost):\(pin.port)") else {
                throw HTTPClientError.transport.with(message: "curl_slist_append failed")
            }
            connectTo = list
            try check(ccurl_setopt_slist(raw, CURLOPT_CONNECT_TO, list), "CURLOPT_CONNECT_TO")
            // The checked address is the one reached: no proxy in between.
            try check(ccurl_setopt_string(raw, CURLOPT_PROXY, ""), "CURLOPT_PROXY")
        }

        if cancellation?.isCancelled == true {
            throw HTTPClientError.cancelled.with(message: "cancelled before the request started")
        }
        let code = curl_easy_perform(raw)
        guard code == CURLE_OK else {
            throw failure(for: code)
        }

        var status = 0
        var microseconds: curl_off_t = 0
        _ = ccurl_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &status)
        _ = ccurl_getinfo_off_t(raw, CURLINFO_TOTAL_TIME_T, &microseconds)
        return HTTPClientResponse(
            status: status,
            headers: HTTPClientHeaders(responseHeaders),
            body: responseBody,
            totalTime: .microseconds(Int64(microseconds))
        )
    }

    // MARK: Options

    private func configure(
        for request: HTTPClientRequest,
        configuration: HTTPClient.Configuration,
        headerList: UnsafeMutablePointer<curl_slist>?
    ) throws(HTTPClientError) {
        let userData = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try check(ccurl_setopt_string(raw, CURLOPT_URL, request.url), "CURLOPT_URL")
        // Webhook semantics: only http(s), and a redirect is the receiver's answer, not an instruction.
        try check(ccurl_setopt_string(raw, CURLOPT_PROTOCOLS_STR, "http,https"), "CURLOPT_PROTOCOLS_STR")
        try check(ccurl_setopt_string(raw, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"), "CURLOPT_REDIR_PROTOCOLS_STR")
        try check(ccurl_setopt_long(raw, CURLOPT_FOLLOWLOCATION, 0), "CURLOPT_FOLLOWLOCATION")
        // Signals (SIGALRM for DNS timeouts) are process-wide and unsafe with many threads.
        try check(ccurl_setopt_long(raw, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        try check(ccurl_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.curlMilliseconds), "CURLOPT_CONNECTTIMEOUT_MS")
        let totalTimeout = request.timeout ?? configuration.totalTimeout
        try check(ccurl_setopt_long(raw, CURLOPT_TIMEOUT_MS, totalTimeout.curlMilliseconds), "CURLOPT_TIMEOUT_MS")
        try check(ccurl_setopt_string(raw, CURLOPT_USERAGENT, configuration.userAgent), "CURLOPT_USERAGENT")
        // Refuses early when Content-Length already says too much; the write callback catches the rest.
        try check(ccurl_setopt_off_t(raw, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(bodyLimit)), "CURLOPT_MAXFILESIZE_LARGE")
        if !configuration.usesEnvironmentProxy {
            // An empty proxy string makes libcurl ignore http_proxy and friends.
            try check(ccurl_setopt_string(raw, CURLOPT_PROXY, ""), "CURLOPT_PROXY")
        }
        try check(ccurl_setopt_slist(raw, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")

        try check(ccurl_setopt_write_callback(raw, CURLOPT_WRITEFUNCTION) { data, size, count, userData in
            EasyHandle.from(userData).receiveBody(data, byteCount: size * count)
        }, "CURLOPT_WRITEFUNCTION")
        try check(ccurl_setopt_pointer(raw, CURLOPT_WRITEDATA, userData), "CURLOPT_WRITEDATA")
        try check(ccurl_setopt_header_callback(raw, CURLOPT_HEADERFUNCTION) { data, size, count, userData in
            EasyHandle.from(userData).receiveHeaderLine(data, byteCount: size * count)
        }, "CURLOPT_HEADERFUNCTION")
        try check(ccurl_setopt_pointer(raw, CURLOPT_HEADERDATA, userData), "CURLOPT_HEADERDATA")
        if cancellation != nil {
            try check(ccurl_setopt_xferinfo_callback(raw, CURLOPT_XFERINFOFUNCTION) { userData, _, _, _, _ in
                EasyHandle.from(userData).cancellation?.isCancelled == true ? 1 : 0
            }, "CURLOPT_XFERINFOFUNCTION")
            try check(ccurl_setopt_pointer(raw, CURLOPT_XFERINFODATA, userData), "CURLOPT_XFERINFODATA")
            try check(ccurl_setopt_long(raw, CURLOPT_NOPROGRESS, 0), "CURLOPT_NOPROGRESS")
        }

        try configureMethodAndBody(for: request)
    }

    private func configureMethodAndBody(for request: HTTPClientRequest) throws(HTTPClientError) {
        let method = request.method.rawValue
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenByte) else {
            throw HTTPClientError.invalidRequest.with(message: "invalid method \(method)")
        }
        if method == "HEAD" {
            guard request.body.isEmpty else {
                throw HTTPClientError.invalidRequest.with(message: "HEAD request with a body")
            }
            // Without NOBODY curl would wait for a body a HEAD response never has.
            try check(ccurl_setopt_long(raw, CURLOPT_NOBODY, 1), "CURLOPT_NOBODY")
            return
        }
        let sendsBody = !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method)
        if sendsBody {
            // Size first, so a body with NUL bytes is copied whole rather than as a C string.
            try check(ccurl_setopt_off_t(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)), "CURLOPT_POSTFIELDSIZE_LARGE")
            let code: CURLcode
            if request.body.isEmpty {
                code = ccurl_setopt_string(raw, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                code = request.body.withUnsafeBytes { bytes in
                    ccurl_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
            try check(code, "CURLOPT_COPYPOSTFIELDS")
            if method != "POST" {
                try check(ccurl_setopt_string(raw, CURLOPT_CUSTOMREQUEST, method), "CURLOPT_CUSTOMREQUEST")
            }
        } else {
            try check(ccurl_setopt_long(raw, CURLOPT_HTTPGET, 1), "CURLOPT_HTTPGET")
            if method != "GET" {
                try check(ccurl_setopt_string(raw, CURLOPT_CUSTOMREQUEST, method), "CURLOPT_CUSTOMREQUEST")
            }
        }
    }

    /// Builds the `curl_slist` of request headers; the caller frees it after the transfer.
    private static func makeHeaderList(for request: HTTPClientRequest) throws(HTTPClientError) -> UnsafeMutablePointer<curl_slist>? {
        var lines: [String] = []
        for field in request.headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(isTokenByte) else {
                throw HTTPClientError.invalidRequest.with(message: "invalid header name \(field.name)")
            }
            // CR or LF would let a value inject headers; NUL would cut it short.
            guard !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw HTTPClientError.invalidRequest.with(message: "invalid value for header \(field.name)")
            }
            // "Name:" with nothing after it would remove the header in curl; "Name;" sends it empty.
            lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // Suppress curl's additions that change what a receiver sees: a 1 s Expect stall and a
        // form content type on binary bodies.
        if !request.headers.contains(name: "Expect") { lines.append("Expect:") }
        if !request.headers.contains(name: "Content-Type") { lines.append("Content-Type:") }

        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw HTTPClientError.transport.with(message: "curl_slist_append failed")
            }
            list = appended
        }
        return list
    }

    // MARK: Callbacks

    /// Appends body bytes; returning anything but `byteCount` makes curl abort the transfer.
    private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, byteCount: Int) -> Int {
        guard byteCount > 0, let data else { return 0 }
        guard responseBody.count + byteCount <= bodyLimit else {
            bodyLimitExceeded = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: byteCount) { bytes in
            responseBody.append(contentsOf: UnsafeBufferPointer(start: bytes, count: byteCount))
        }
        return byteCount
    }

    /// Collects one raw header line of the response.
    private func receiveHeaderLine(_ data: UnsafeMutablePointer<CChar>?, byteCount: Int) -> Int {
        guard byteCount > 0, let data else { return byteCount }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: byteCount) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: byteCount), as: UTF8.self)
        }
        let trimmed = line.trimmingHTTPWhitespace()
        if line.hasPrefix("HTTP/") {
            // A new status line starts a new header block (after a 1xx): keep only the final one.
            responseHeaders = []
        } else if trimmed.isEmpty {
            // The blank line that ends a block.
        } else if line.first == " " || line.first == "\t" {
            // Obsolete line folding: the value continues on this line.
            if !responseHeaders.isEmpty {
                responseHeaders[responseHeaders.count - 1].value += " " + trimmed
            }
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = String(trimmed[..<colon]).trimmingHTTPWhitespace()
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmingHTTPWhitespace()
            responseHeaders.append(HTTPClientHeaders.Field(name: name, value: value))
        }
        return byteCount
    }

    // MARK: Errors

    private func failure(for code: CURLcode) -> HTTPClientError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        if code == CURLE_WRITE_ERROR && bodyLimitExceeded {
            return HTTPClientError.responseTooLarge.with(
                curlCode: Int(code.rawValue),
                message: "response body exceeds \(bodyLimit) bytes"
            )
        }
        if code == CURLE_FILESIZE_EXCEEDED {
            return HTTPClientError.responseTooLarge.with(
                curlCode: Int(code.rawValue),
                message: "Content-Length exceeds \(bodyLimit) bytes"
            )
        }
        return HTTPClientError.fromCurl(code, message: detail)
    }

    private func check(_ code: CURLcode, _ option: StaticString) throws(HTTPClientError) {
        guard code == CURLE_OK else {
            throw HTTPClientError.transport.with(
                curlCode: Int(code.rawValue),
                message: "\(option): \(String(cString: curl_easy_strerror(code)))"
            )
        }
    }

    // RFC 9110 tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension String {
    /// Drops leading and trailing spaces, tabs, CR and LF.
    func trimmingHTTPWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isWhitespace($0) }),
              let end = lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(self[start...end])
    }
}
