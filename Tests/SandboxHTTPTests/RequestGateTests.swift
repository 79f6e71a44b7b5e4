import Dispatch
import Foundation
import SandboxHTTP
import SandboxTestSupport
import Synchronization
import Testing

/// `RequestGate`: a restore runs alone, after the requests under way and before those that came
/// meanwhile; a request that waits too long gets 503 `restore_in_progress`.
@Suite("RequestGate: no request sees a service half restored", .serialized)
struct RequestGateTests {
    /// Answers each request once `release` lets it, noting when it started and ended.
    final class Held: Responder {
        let events = Mutex<[String]>([])
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func respond(to request: Request) -> Response {
            events.withLock { $0.append("start \(request.path)") }
            started.signal()
            if request.path == "/slow" { release.wait() }
            events.withLock { $0.append("end \(request.path)") }
            return Response(status: 200)
        }

        func note(_ event: String) { events.withLock { $0.append(event) } }
    }

    /// Sends `path` through `gate`; the answer's status comes through the semaphore's box.
    final class Pending: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var response = Response()

        init(_ responder: some Responder, _ path: String) {
            responder.respond(to: Request(method: "GET", path: path)) { answer in
                self.response = answer()
                self.done.signal()
            }
        }

        func wait() -> Response {
            done.wait()
            return response
        }
    }

    @Test("the restore waits for the request under way; a request sent meanwhile runs after the restore", .timeLimit(.minutes(1)))
    func restoreRunsAlone() throws {
        let gate = RequestGate()
        let held = Held()
        let front = gate.guarding(held)
        let slow = Pending(front, "/slow")
        held.started.wait()
        let restored = DispatchSemaphore(value: 0)
        let restoreEntered = DispatchSemaphore(value: 0)
        // The restore route runs inside the gate, as a request of its own.
        struct Restore: Responder {
            let gate: RequestGate
            let held: Held
            let entered: DispatchSemaphore
            func respond(to request: Request) -> Response {
                entered.signal()
                try? gate.alone { held.note("restore") }
                return Response(status: 200)
            }
        }
        let restoreFront = gate.guarding(Restore(gate: gate, held: held, entered: restoreEntered))
        DispatchQueue.global().async {
            _ = Pending(restoreFront, "/_sandbox/snapshots/x/restore").wait()
            restored.signal()
        }
        restoreEntered.wait()
        // The gate closes as the restore waits; a request sent now is parked until it opens.
        #expect(eventuallyBlocking { gate.isClosed })
        let late = Pending(front, "/late")
        held.release.signal()
        #expect(slow.wait().status == 200)
        restored.wait()
        #expect(late.wait().status == 200)
        let events = held.events.withLock { $0 }
        let restoreAt = try #require(events.firstIndex(of: "restore"))
        #expect(events.firstIndex(of: "end /slow")! < restoreAt, "\(events)")
        #expect(events.firstIndex(of: "start /late")! > restoreAt, "a request ran while the gate was closed: \(events)")
    }

    @Test("a request that waits longer than the limit gets 503 restore_in_progress with Retry-After", .timeLimit(.minutes(1)))
    func waitingTooLongIsRefused() throws {
        let gate = RequestGate(waitLimit: .milliseconds(100))
        let held = Held()
        let front = gate.guarding(held)
        let inside = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? gate.alone {
                inside.signal()
                finish.wait()
            }
        }
        inside.wait()
        let refused = Pending(front, "/during").wait()
        finish.signal()
        #expect(refused.status == 503)
        #expect(refused.headers.contains { $0.0 == "Retry-After" && $0.1 == "1" }, "\(refused.headers)")
        #expect(String(decoding: refused.body, as: UTF8.self).contains("restore_in_progress"))
        #expect(!held.events.withLock { $0 }.contains("start /during"), "the refused request ran anyway")
        #expect(Pending(front, "/after").wait().status == 200)
    }
}
