import HostRules
import HostStorage
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxWire

/// Login, the session and the terminal it is on, the secure code, relink, unregister and the
/// device's status and support number, on the terminal API.
extension EnvironmentHost {
    static func addSessionRoutes(to router: inout Router, _ lifecycle: Lifecycle) {
        router.post("/terminal/v1/sessions") { request in
            let body = try request.decode(Bodies.Login.self)
            return .json(
                try lifecycle.login(
                    device: try Validate.deviceID(body.deviceId), secret: body.deviceSecret,
                    pin: try body.pin.map { try Validate.pin($0) }, from: .init(address: request.clientAddress)),
                status: 201)
        }
        router.group("/terminal/v1", middleware: sessionBearer(lifecycle)) { terminal in
            terminal.get("/sessions/current", .nonBlocking) { _, session in .json(lifecycle.sessionState(session)) }
            terminal.delete("/sessions/current") { _, session in
                try lifecycle.logout(session)
                return Response(status: 204)
            }
            terminal.get("/info-init", .nonBlocking) { _, session in .json(InfoInit(terminal: session.terminal.profile)) }
            terminal.get("/terminal", .nonBlocking) { _, session in .json(try lifecycle.terminalInfo(session)) }
            terminal.put("/secret-code") { request, session in
                let body = try request.decode(Bodies.SecretCode.self)
                try lifecycle.updateSecretCode(
                    session, old: try Validate.pin(body.oldSecretCode, field: "oldSecretCode"),
                    new: try Validate.pin(body.newSecretCode, field: "newSecretCode"), from: .init(address: request.clientAddress))
                return Response(status: 204)
            }
            terminal.post("/relink") { _, session in .json(try lifecycle.relink(session)) }
        }
        router.post("/terminal/v1/unregister") { request in
            let body = try request.decode(Bodies.Device.self)
            try lifecycle.unregisterDevice(try Validate.deviceID(body.deviceId), secret: body.deviceSecret)
            return Response(status: 204)
        }
        router.post("/terminal/v1/devices/status") { request in
            let body = try request.decode(Bodies.Device.self)
            return .json(try lifecycle.deviceStatus(try Validate.deviceID(body.deviceId), secret: body.deviceSecret))
        }
        router.post("/terminal/v1/support-number") { request in
            .json(try lifecycle.supportNumber(device: try Validate.deviceID(try request.decode(Bodies.Support.self).deviceId)))
        }
    }
}
