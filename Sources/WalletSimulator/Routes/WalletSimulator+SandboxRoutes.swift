import WalletRules
import WalletStorage
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxStore
import SandboxWire

/// Sandbox control of the wallet (`/_sandbox/*`): its clock, as a host's, and a reset.
extension WalletSimulator {
    static func addSandboxRoutes(to router: inout Router, book: OrderBook) {
        @Sendable func state() -> Response {
            .json(SandboxClockState(now: WireTime.string(milliseconds: book.now, precision: .seconds), skewSeconds: book.clock.skew))
        }
        router.get("/_sandbox/clock") { _ in state() }
        router.post("/_sandbox/clock") { request in
            struct Body: Decodable { let advanceSeconds: Double?; let set: String?; let realTime: Bool? }
            let body = try request.decode(Body.self)
            do throws(ClockMoveRefusal) {
                try book.clock.move(advanceSeconds: body.advanceSeconds, set: body.set, realTime: body.realTime)
            } catch {
                throw WalletError.invalid(error.message, field: error.field)
            }
            // Kept in the database: a restart goes on from here instead of going back to real time.
            try book.store.write { db in try db.walletState.saveClockOffset(book.clock.skew) }
            // What fell due is done before the answer: the caller sees it at once.
            try book.tick()
            return state()
        }
        router.post("/_sandbox/reset") { _ in
            try book.reset()
            return Response(status: 204)
        }
    }
}
