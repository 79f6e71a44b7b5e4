import HostRules
import HostStorage
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxWire

/// Terminal registration on the terminal API (docs/terminal-lifecycle.md): by a challenge code the
/// merchant confirms in the portal, or by a registration token from the merchant's backend.
extension EnvironmentHost {
    static func addRegistrationRoutes(to router: inout Router, _ lifecycle: Lifecycle) {
        router.post("/terminal/v1/registrations") { request in
            let body = try request.decode(Bodies.Begin.self)
            return .json(
                try lifecycle.beginRegistration(
                    device: try Validate.deviceID(body.deviceId), model: try Validate.deviceModel(body.deviceModel)),
                status: 201)
        }
        router.post("/terminal/v1/registrations/verify-code") { request in
            .json(
                try lifecycle.verifyBackOfficeCode(
                    try request.decode(Bodies.Code.self).code, from: .init(address: request.clientAddress)))
        }
        router.post("/terminal/v1/registrations/complete") { request in
            let body = try request.decode(Bodies.Complete.self)
            let device = try Validate.deviceID(body.deviceId)
            return .json(
                try lifecycle.completeRegistration(
                    device: device, backOfficeCode: body.backofficeCode, pin: try body.pin.map { try Validate.pin($0) },
                    from: .init(address: request.clientAddress, device: device)))
        }
        // PagBank's Tap On: a partner app's key buys a registration token for one of its sellers' terminals.
        router.post("/terminal/v1/partner-activations") { request in
            let body = try request.decode(PartnerActivationRequest.self)
            return .json(
                try lifecycle.activate(
                    appKey: body.appKey, seller: try body.sellerId.map { try Validate.identifier($0, field: "sellerId") }),
                status: 201)
        }
        router.post("/terminal/v1/token-registrations/verify") { request in
            let body = try request.decode(Bodies.Token.self)
            let device = try body.deviceId.map { try Validate.deviceID($0) }
            return .json(
                try lifecycle.verifyToken(
                    body.registrationToken, device: device, from: .init(address: request.clientAddress, device: device)))
        }
        router.post("/terminal/v1/token-registrations/begin") { request in
            let body = try request.decode(Bodies.TokenBegin.self)
            let device = try Validate.deviceID(body.deviceId)
            return .json(
                try lifecycle.beginTokenRegistration(
                    body.registrationToken, device: device, model: try Validate.deviceModel(body.deviceModel),
                    from: .init(address: request.clientAddress, device: device)))
        }
        router.post("/terminal/v1/token-registrations/end") { request in
            let body = try request.decode(Bodies.TokenEnd.self)
            let device = try Validate.deviceID(body.deviceId)
            return .json(
                try lifecycle.endTokenRegistration(
                    body.registrationToken, device: device, pin: try body.pin.map { try Validate.pin($0) },
                    from: .init(address: request.clientAddress, device: device)))
        }
    }
}
