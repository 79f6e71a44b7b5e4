import CMicroHTTPD
import SandboxTime
import Foundation
import SandboxCore
import SandboxWire
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a few polling threads (`pollingThreads`, one per core by
/// default) watch every connection with epoll; each request is buffered whole (up to the body
/// limit) and handed to one `Responder`, which answers through a reply closure. A route that
/// answers later (a payment, once its commit is durable) starts on the polling thread and hands
/// its write over; the connection is suspended meanwhile and resumed by whoever replies, so no
/// thread waits for the disk on its behalf. A route that answers on its own thread runs on
/// ``HandlerThreads``, where it may block (see ``Router``). On the 2-core bench machine this made
/// a sale cost about a quarter less CPU than a thread per connection, which woke three threads
/// per sale.
///
/// ```swift
/// let server = Server(name: "EU", configuration: .init(port: 8100), responder: router, accessLog: log)
/// try server.start()
/// print(server.port)
/// server.stop()   // finishes requests in flight, then closes every connection
/// ```
///
/// libmicrohttpd parses the protocol, enforces header and connection limits (in all and per client
/// address) and answers malformed requests with 400 itself; this type adds the body limit (413 on
/// the declared length, before the body is read; 411 for a chunked body), the deadlines
/// libmicrohttpd's idle timeout does not keep (``ConnectionDeadlines``), the refusal of what two
/// readers of one request could disagree on (two lengths, length and chunked, control bytes a C
/// string hides), the request id
/// (`X-Request-Id`, echoed when the client sends a sane one) and the access log.
public final class Server: Sendable {
    public let name: String
    public let configuration: ServerConfiguration
    let responder: any Responder
    let accessLog: AccessLog?
    private let daemon = Mutex<DaemonHandle?>(nil)
    private let boundPort = Atomic<UInt16>(0)
    private let inFlight = Atomic<Int>(0)
    private let sequence = Atomic<UInt64>(0)
    /// Requests whose connection is suspended until their answer comes (see `finish`), under
    /// `suspendedLock`: a pthread mutex, which the polling threads and the threads that answer
    /// share better than Synchronization's `Mutex` does under contention.
    nonisolated(unsafe) private var suspended: [ObjectIdentifier: Exchange] = [:]
    private let suspendedLock = NSLock()
    private let idPrefix: String
    let deadlines: ConnectionDeadlines

    /// - Parameter clock: what the connection deadlines are measured on (a monotonic clock unless a
    ///   test moves one); never a host's sandbox clock, which testers move by days.
    public init(
        name: String, configuration: ServerConfiguration, responder: any Responder, accessLog: AccessLog? = nil,
        clock: any TimeSource = UptimeClock()
    ) {
        self.name = name
        self.configuration = configuration
        let controlled = configuration.controlKey.map { ControlGate(key: $0, inner: responder) } ?? responder
        self.responder = SiteGate(allowedHosts: configuration.admittedHostNames, inner: controlled)
        self.accessLog = accessLog
        self.deadlines = ConnectionDeadlines(
            clock: clock, headSeconds: configuration.requestHeadSeconds,
            keepAliveSeconds: configuration.connectionTimeoutSeconds,
            minimumBodyRate: configuration.minimumBodyBytesPerSecond,
            // A tenth of the slots stays for clients that are not among the ones that hold most.
            crowdedAbove: configuration.connectionLimit - max(1, configuration.connectionLimit / 10))
        // Request ids must not repeat across restarts of one log; the start instant and the
        // process id make a prefix that does not, with no randomness needed.
        let start = UInt64(Date().timeIntervalSince1970 * 1000)
        self.idPrefix = "req_" + String(start, radix: 36) + String(UInt32(getpid()), radix: 36)
    }

    deinit {
        stop()
    }

    /// The port the server listens on (the chosen one when configured with port 0).
    public var port: UInt16 { boundPort.load(ordering: .relaxed) }

    /// Starts listening. Requests are served on libmicrohttpd's threads from here on.
    public func start() throws(ServerError) {
        // A pool of threads, each polling its share of the connections (epoll on Linux; elsewhere, such as
        // macOS, what libmicrohttpd finds best there); a connection whose answer comes later is
        // suspended meanwhile and resumed by whoever answers it.
        #if os(Linux)
        let polling = MHD_USE_EPOLL.rawValue
        #else
        let polling = MHD_USE_AUTO.rawValue
        #endif
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | polling | MHD_ALLOW_SUSPEND_RESUME.rawValue
        let perAddress = max(1, min(configuration.perAddressConnectionLimit, configuration.connectionLimit))
        let started: OpaquePointer? = cmhd_start(
            flags, configuration.host, configuration.port, serverAccessHandler,
            Unmanaged.passUnretained(self).toOpaque(), serverCompletedHandler, serverConnectionNotifier, serverTargetReader,
            configuration.maxHeaderBytes, UInt32(configuration.connectionTimeoutSeconds), UInt32(configuration.connectionLimit),
            UInt32(perAddress), 1024, UInt32(max(1, configuration.pollingThreads)))
        guard let started else {
            let code = errno
            var probe = in_addr()
            if inet_pton(AF_INET, configuration.host, &probe) != 1 { throw .invalidAddress(configuration.host) }
            // The port is in use or refused; anything else (out of descriptors or threads) is named.
            let reason = code == EADDRINUSE || code == EACCES || code == 0
                ? "address in use or not permitted" : String(cString: strerror(code))
            throw .cannotListen(configuration.host, configuration.port, reason: reason)
        }
        boundPort.store(cmhd_bound_port(started), ordering: .relaxed)
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
        deadlines.startSweeping()
    }

    /// Stops accepting, lets requests in flight finish (up to `drainSeconds`), closes the rest.
    public func stop() {
        guard let running = daemon.withLock({ current -> DaemonHandle? in
            defer { current = nil }
            return current
        })?.pointer else { return }
        deadlines.stopSweeping()
        // Quiescing hands the listening socket back to us: it is closed after the daemon stops.
        let listener = MHD_quiesce_daemon(running)
        let deadline = Date().addingTimeInterval(configuration.drainSeconds)
        while inFlight.load(ordering: .acquiring) > 0 && Date() < deadline {
            usleep(5_000)
        }
        // libmicrohttpd refuses to stop with suspended connections: those still waiting for their
        // answer are resumed without one, and closed (the answer, if it ever comes, is dropped).
        for exchange in suspendedLock.withLock({ Array(suspended.values) }) {
            exchange.handover.withLock { handover in
                if let suspended = handover.suspended {
                    handover.suspended = nil
                    handover.abandoned = true
                    MHD_resume_connection(suspended.connection)
                }
            }
        }
        MHD_stop_daemon(running)
        if listener >= 0 { close(listener) }
    }

    /// The daemon pointer, owned by this server and only passed to libmicrohttpd under the lock.
    private struct DaemonHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Runs `body` with the server behind libmicrohttpd's context pointer, without retaining it:
    /// the server outlives its daemon, which makes every call. (A retain per call went the slow
    /// way: the host's weak reference gives the server a side table.)
    static func with<Result>(_ pointer: UnsafeMutableRawPointer, _ body: (Server) -> Result) -> Result {
        Unmanaged<Server>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    // MARK: - Requests (called on libmicrohttpd's threads)

    /// State of one request between the calls libmicrohttpd makes for it.
    final class Exchange: @unchecked Sendable {
        let started = DispatchTime.now().uptimeNanoseconds
        var body: [UInt8] = []
        var requestID = ""
        /// The access handler has seen this request's headers (its first call is over).
        var headersSeen = false
        /// Counted in `inFlight` (from the first call of the access handler on).
        var counted = false
        /// The request target as sent, up to its first NUL byte: where it starts and how long it is
        /// (a target cut short by a NUL does not reach the HTTP version that follows it).
        var rawTarget: UnsafeRawPointer?
        var rawTargetLength = 0
        /// Which part of the target holds a control byte, raw or percent-encoded (`path`, `query`).
        var controlByteIn: String?
        /// The connection's deadlines while this request reads its body.
        var watch: ConnectionWatch?
        /// The peer's address, read once when the connection was accepted (nil: not known).
        var peer: String?
        /// What the thread that answers and `stop()` change too (held inline: no lock to allocate
        /// per request).
        let handover = Mutex(Handover())
    }

    /// A suspended connection, which only the thread that resumes it touches.
    struct Suspended: @unchecked Sendable {
        let connection: OpaquePointer
    }

    struct Handover {
        /// How to make the answer, once the responder gave it (the request was handed over when
        /// `requestID` is set); run by the polling thread that sends it.
        var answer: Answering?
        /// The connection while it waits, suspended, for `answer`: whoever sets the answer resumes it
        /// (under the lock, so that `stop()` never sees a resume half done).
        var suspended: Suspended?
        /// `stop()` resumed the connection without an answer, to close it: a late answer is dropped.
        var abandoned = false
    }

    /// The request line has been read: keep what the target was before libmicrohttpd decodes it.
    func readTarget(_ uri: UnsafePointer<CChar>) -> UnsafeMutableRawPointer {
        let exchange = Exchange()
        exchange.rawTarget = UnsafeRawPointer(uri)
        exchange.rawTargetLength = strlen(uri)
        exchange.controlByteIn = Self.controlByte(inTarget: UnsafeRawPointer(uri), length: exchange.rawTargetLength)
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let exchange: Exchange
        if let existing = state.pointee {
            exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        } else {
            exchange = Exchange()
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
        }
        if !exchange.headersSeen {
            // First call: only the headers have arrived.
            exchange.headersSeen = true
            exchange.counted = true
            inFlight.add(1, ordering: .relaxed)
            if let context = cmhd_socket_context(connection) {
                let watch = Unmanaged<ConnectionWatch>.fromOpaque(context).takeUnretainedValue()
                watch.enter(.body, at: deadlines.now)
                exchange.watch = watch
                exchange.peer = watch.address.isEmpty ? nil : watch.address
            }
            var refusal = refusal(connection, exchange, method: method, version: version)
            if refusal == nil, let length = Self.value(connection, .HEADER_KIND, "Content-Length"),
                let declared = Int(length), declared > configuration.maxBodyBytes
            {
                refusal = HTTPError.payloadTooLarge(limit: configuration.maxBodyBytes).response
            }
            if let refusal {
                // Answered before a byte of the body is read; libmicrohttpd closes the connection after.
                exchange.watch?.enter(.busy, at: deadlines.now)
                exchange.watch = nil
                return finish(connection, exchange, url: url, method: method, refusal: refusal)
            }
            return .YES
        }
        let size = uploadDataSize.pointee
        if size > 0 {
            guard let uploadData else { return .NO }
            // The declared length was checked at the head (chunked bodies are refused there): more
            // bytes than that never come, and if they did, the connection ends unanswered.
            guard exchange.body.count + size <= configuration.maxBodyBytes else { return .NO }
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
            exchange.watch?.receive(size)
            uploadDataSize.pointee = 0
            return .YES
        }
        exchange.watch?.enter(.busy, at: deadlines.now)
        exchange.watch = nil
        return finish(connection, exchange, url: url, method: method, refusal: nil)
    }

    func completed(connection: OpaquePointer?, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        if let connection, let context = cmhd_socket_context(connection) {
            // The answer is out (or the request failed): the next head's deadline starts now.
            Unmanaged<ConnectionWatch>.fromOpaque(context).takeUnretainedValue().answered(at: deadlines.now)
        }
        guard let state, let existing = state.pointee else { return }
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeRetainedValue()
        state.pointee = nil
        if exchange.counted { inFlight.subtract(1, ordering: .relaxed) }
    }

    func connectionStarted(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let address = cmhd_client_address(connection, &buffer, socklen_t(buffer.count)) == 1 ? String(cString: buffer) : ""
        let watch = ConnectionWatch(socket: cmhd_connection_socket(connection), address: address, now: deadlines.now)
        socketContext.pointee = Unmanaged.passRetained(watch).toOpaque()
        deadlines.opened(watch)
    }

    func connectionClosed(socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let context = socketContext.pointee else { return }
        socketContext.pointee = nil
        let watch = Unmanaged<ConnectionWatch>.fromOpaque(context).takeRetainedValue()
        deadlines.closed(watch)
    }

    private func finish(
        _ connection: OpaquePointer, _ exchange: Exchange, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        refusal: Response?
    ) -> MHD_Result {
        if !exchange.requestID.isEmpty {
            // Called again after a resume: the answer is there, unless `stop()` gave up on it.
            guard let answer = exchange.handover.withLock({ $0.answer }) else { return .NO }
            return send(answer(), requestID: exchange.requestID, on: connection, exchange, url: url, method: method)
        }
        let requestID = requestID(for: connection)
        exchange.requestID = requestID
        if var refusal {
            // Its body is not read: the connection cannot serve another request after it.
            refusal.headers.append(("Connection", "close"))
            return send(refusal, requestID: requestID, on: connection, exchange, url: url, method: method)
        }
        let headers = Self.values(connection, .HEADER_KIND, lowercasingKeys: true)
        let request = Request(
            method: String(cString: method), path: String(cString: url), query: Self.values(connection, .GET_ARGUMENT_KIND),
            headers: headers, body: exchange.body, id: requestID,
            clientAddress: configuration.trustedProxies.isEmpty
                ? exchange.peer ?? Self.clientAddress(connection)
                : ForwardedFor.client(
                    peer: exchange.peer ?? Self.clientAddress(connection), header: headers["x-forwarded-for"],
                    trusted: configuration.trustedProxies))
        exchange.body = []
        responder.respond(to: request) { [self] answer in
            exchange.handover.withLock { handover in
                guard !handover.abandoned else { return }
                handover.answer = answer
                if let waiting = handover.suspended {
                    handover.suspended = nil
                    suspendedLock.withLock { _ = suspended.removeValue(forKey: ObjectIdentifier(exchange)) }
                    MHD_resume_connection(waiting.connection)
                }
            }
        }
        let waiting = Suspended(connection: connection)
        let ready = exchange.handover.withLock { handover -> Answering? in
            if let answer = handover.answer { return answer }
            // Under the lock: an answer that comes from here on finds the connection suspended and resumes it.
            MHD_suspend_connection(waiting.connection)
            handover.suspended = waiting
            suspendedLock.withLock { suspended[ObjectIdentifier(exchange)] = exchange }
            return nil
        }
        // Answered on this thread, or already by another: sent now (only this thread touches the
        // exchange once its answer is there).
        if let ready { return send(ready(), requestID: requestID, on: connection, exchange, url: url, method: method) }
        return .YES
    }

    /// The client's request id when it is sane, else a new one.
    func requestID(for connection: OpaquePointer) -> String {
        Self.value(connection, .HEADER_KIND, "X-Request-Id").flatMap(Self.acceptableID)
            ?? "\(idPrefix)_\(String(sequence.add(1, ordering: .relaxed).newValue, radix: 36))"
    }

    private func send(
        _ response: Response, requestID: String, on connection: OpaquePointer, _ exchange: Exchange,
        url: UnsafePointer<CChar>, method: UnsafePointer<CChar>
    ) -> MHD_Result {
        var response = response
        response.headers.append(("X-Request-Id", requestID))
        let result: MHD_Result
        if response.dropsConnection {
            // The head goes out, the body never does: libmicrohttpd closes the connection when the
            // body's reader fails. A client cannot mistake that for an idle keep-alive connection the
            // server closed (which an HTTP client retries by itself, libcurl even for a POST: then a
            // retried sale would be answered by its idempotent replay and the device would hear it).
            result = Self.queueBroken(response, on: connection)
        } else {
            result = Self.queue(response, on: connection)
        }
        if let accessLog {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - exchange.started) / 1_000_000
            accessLog.record(
                service: name, request: requestID, method: String(cString: method), path: String(cString: url),
                status: response.status, bytes: response.body.count, milliseconds: elapsed)
        }
        return result
    }

    private static func queueBroken(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
        guard let created = cmhd_create_broken_response() else { return .NO }
        defer { MHD_destroy_response(created) }
        addHeaders(response.headers.filter { $0.0.lowercased() != "content-length" }, to: created)
        return MHD_queue_response(connection, UInt32(response.status), created)
    }

    private static func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        addHeaders(response.headers, to: created)
        return MHD_queue_response(connection, UInt32(response.status), created)
    }

    /// The answer's headers, then the guard headers. libmicrohttpd refuses names or values with
    /// line breaks: such a header is dropped, not sent.
    private static func addHeaders(_ headers: [(String, String)], to response: OpaquePointer) {
        for (name, value) in headers {
            // withCString: a short string passed as a C pointer is otherwise copied into a new array.
            _ = name.withCString { name in value.withCString { value in MHD_add_response_header(response, name, value) } }
        }
        addGuardHeaders(response)
    }

    /// On every answer: no browser guesses another type than the declared one (a JSON answer is
    /// never run as a script or a page), and no page of another origin shows ours in a frame, where
    /// it could get a tester to click through it.
    private static func addGuardHeaders(_ response: OpaquePointer) {
        _ = MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
        _ = MHD_add_response_header(response, "X-Frame-Options", "SAMEORIGIN")
        _ = MHD_add_response_header(response, "Content-Security-Policy", "frame-ancestors 'self'")
    }

    /// The peer's address as libmicrohttpd saw it at accept (no proxy header is trusted).
    private static func clientAddress(_ connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard cmhd_client_address(connection, &buffer, socklen_t(buffer.count)) == 1 else { return nil }
        return String(cString: buffer)
    }

    private static func value(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
    }

    /// Collects headers or query arguments; a repeated name keeps its values joined by ", ".
    private static func values(
        _ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercasingKeys: Bool = false
    ) -> [String: String] {
        final class Collector {
            var values: [String: String] = [:]
            let lowercasingKeys: Bool
            init(lowercasingKeys: Bool) { self.lowercasingKeys = lowercasingKeys }
        }
        let collector = Collector(lowercasingKeys: lowercasingKeys)
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
                guard let context, let key else { return .YES }
                let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                let name = collector.lowercasingKeys ? String(cString: key).lowercased() : String(cString: key)
                let text = value.map { String(cString: $0) } ?? ""
                if let previous = collector.values[name] {
                    collector.values[name] = previous + ", " + text
                } else {
                    collector.values[name] = text
                }
                return .YES
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.values
    }

    /// A client's request id is echoed only when it is short and plain, so logs stay parseable.
    private static func acceptableID(_ candidate: String) -> String? {
        PlainIdentifier.isValid(candidate) ? candidate : nil
    }
}

// C callbacks live at file scope in library code, nonisolated, and find their server through
// the context pointer: libmicrohttpd calls them on its own threads.
private let serverAccessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, version, uploadData, uploadDataSize, state in
    guard let context, let connection, let url, let method, let uploadDataSize, let state else { return .NO }
    return Server.with(context) {
        $0.handle(
            connection: connection, url: url, method: method, version: version, uploadData: uploadData,
            uploadDataSize: uploadDataSize, state: state)
    }
}

private let serverCompletedHandler: MHD_RequestCompletedCallback = { context, connection, state, _ in
    guard let context else { return }
    Server.with(context) { $0.completed(connection: connection, state: state) }
}

private let serverConnectionNotifier: MHD_NotifyConnectionCallback = { context, connection, socketContext, code in
    guard let context, let connection, let socketContext else { return }
    switch code {
    case MHD_ConnectionNotificationCode(rawValue: 0): Server.with(context) { $0.connectionStarted(connection, socketContext: socketContext) }
    case MHD_ConnectionNotificationCode(rawValue: 1): Server.with(context) { $0.connectionClosed(socketContext: socketContext) }
    default: break
    }
}

private let serverTargetReader: cmhd_uri_callback = { context, uri, _ in
    guard let context, let uri else { return nil }
    return Server.with(context) { $0.readTarget(uri) }
}
