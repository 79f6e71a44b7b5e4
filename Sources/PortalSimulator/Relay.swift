import Foundation
import SandboxHTTP

/// One portal route that stands for one back-office (or sandbox-control) call of a region's host.
///
/// Path parameters are checked before any host is asked (plain ids only, so nothing a browser
/// sends can change which host path is called); a body must be a JSON object and is written
/// again; only the named query parameters are passed on, encoded.
struct Relay: Sendable {
    let method: String
    /// `/api/regions/{region}/terminals/{terminalId}/unlock`
    let portal: String
    /// `/backoffice/v1/terminals/{terminalId}/unlock`
    let host: String
    var query: [String] = []
    var body = false

    static func get(_ portal: String, _ host: String, query: [String] = []) -> Relay {
        Relay(method: "GET", portal: portal, host: host, query: query)
    }
    static func post(_ portal: String, _ host: String, body: Bool = false) -> Relay {
        Relay(method: "POST", portal: portal, host: host, body: body)
    }
    static func put(_ portal: String, _ host: String) -> Relay {
        Relay(method: "PUT", portal: portal, host: host, body: true)
    }
    static func delete(_ portal: String, _ host: String) -> Relay {
        Relay(method: "DELETE", portal: portal, host: host)
    }

    /// The names in braces of a path template, `region` aside.
    var parameters: [String] {
        portal.split(separator: "/").compactMap { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? String(part.dropFirst().dropLast()) : nil
        }.filter { $0 != "region" }
    }

    /// A relay of sandbox control (`/_sandbox/*`, a read of the clock aside): it needs the control key.
    var isControl: Bool { ControlGate.isSandboxControl(method: method, path: host) }

    /// - Parameter controlKey: the portal's own key: a control relay needs it from the page and
    ///   passes it to the host (which shares it); without one, the page's key, if any, is passed on.
    func register(on router: inout Router, hosts: HostLinks, controlKey: String?) {
        let relay = self
        let handler: Handler = { request in
            var forwarded: String?
            if relay.isControl {
                if let controlKey, !ControlGate.admits(request, key: controlKey) { throw ControlGate.refusal(for: request) }
                forwarded = controlKey ?? request.header(ControlGate.header)
            }
            let link = try hosts.link(request.parameter("region"))
            var path = relay.host
            for name in relay.parameters {
                path = path.replacingOccurrences(of: "{\(name)}", with: try PortalSimulator.identifier(request.parameter(name), field: name))
            }
            let pairs = relay.query.compactMap { name in
                request.query[name].map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            }
            if !pairs.isEmpty { path += "?" + pairs.joined(separator: "&") }
            var body: [UInt8] = []
            if relay.body {
                guard (request.header("content-type") ?? "").lowercased().hasPrefix("application/json") else {
                    throw HTTPError.unsupportedMediaType
                }
                guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                    let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                else { throw HTTPError.badRequest("The request body must be a JSON object.", code: .invalidJson) }
                body = [UInt8](data)
            }
            return try link.send(.init(rawValue: relay.method), path, body: body, controlKey: forwarded)
                .relayed(region: link.environment.region)
        }
        switch method {
        case "GET": router.get(portal, handler)
        case "PUT": router.put(portal, handler)
        case "DELETE": router.delete(portal, handler)
        default: router.post(portal, handler)
        }
    }
}
