import Dispatch
import SandboxWire

/// A responder in front of a service's routes that keeps the request journal and applies the
/// faults a tester set: every request is answered by `inner` unless a fault takes it.
///
/// ```swift
/// let traffic = TrafficResponder(inner: router, journal: journal, faults: faults) { path in
///     path.hasPrefix("/terminal/") ? "terminal" : "other"
/// }
/// let server = Server(name: "EU", configuration: configuration, responder: traffic)
/// ```
public struct TrafficResponder: Responder {
    let inner: any Responder
    let journal: RequestJournal?
    let faults: FaultPlan?
    /// The surface a path belongs to.
    let surface: @Sendable (String) -> String
    /// Paths neither kept in the journal nor faulted (the journal's and the faults' own API).
    let exempt: @Sendable (String) -> Bool
    /// Paths kept in the journal but never faulted (the control API a tester needs to get out).
    let unfaultable: @Sendable (String) -> Bool

    public init(
        inner: any Responder, journal: RequestJournal?, faults: FaultPlan?, exempt: @escaping @Sendable (String) -> Bool = { _ in false },
        unfaultable: @escaping @Sendable (String) -> Bool = { _ in false }, surface: @escaping @Sendable (String) -> String
    ) {
        self.inner = inner
        self.journal = journal
        self.faults = faults
        self.surface = surface
        self.exempt = exempt
        self.unfaultable = unfaultable
    }

    /// Answers on the calling thread, through the journal and the faults as the server would
    /// (in-process tests); a delay fault blocks this thread meanwhile.
    public func respond(to request: Request) -> Response {
        final class Box: @unchecked Sendable { var response = Response() }
        let box = Box(), done = DispatchSemaphore(value: 0)
        respond(to: request) { answer in
            box.response = answer()
            done.signal()
        }
        done.wait()
        return box.response
    }

    public func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
        guard !exempt(request.path) else { return inner.respond(to: request, reply: reply) }
        let started = DispatchTime.now().uptimeNanoseconds
        let surface = surface(request.path)
        let fault = unfaultable(request.path) ? nil : faults?.take(method: request.method, path: request.path, surface: surface)
        let journal = journal
        @Sendable func answered(_ response: Response, dropped: Bool = false) -> Response {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
            journal?.record(request: request, surface: surface, response: response, milliseconds: elapsed, fault: fault?.id, dropped: dropped)
            return response
        }
        guard let fault else {
            return inner.respond(to: request) { answer in reply { answered(answer()) } }
        }
        switch fault.action {
        case .status:
            let refusal = HTTPError(
                status: fault.status ?? 503, code: fault.code.map { ErrorCode(rawValue: $0) } ?? .injectedFault,
                message: "Fault \(fault.id), set through the sandbox control API, answered this request.")
            reply { answered(refusal.response) }
        case .delay:
            let delay = DispatchTime.now() + .milliseconds(fault.delayMilliseconds ?? 0)
            DispatchQueue.global().asyncAfter(deadline: delay) {
                inner.respond(to: request) { answer in reply { answered(answer()) } }
            }
        case .drop:
            inner.respond(to: request) { answer in
                reply {
                    var response = answered(answer(), dropped: true)
                    response.dropsConnection = true
                    return response
                }
            }
        }
    }
}
