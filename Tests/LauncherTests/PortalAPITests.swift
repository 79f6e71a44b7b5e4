import Foundation
import Launcher
import Testing
import TestSupport

/// The portal's JSON API behind "Register a device" and "Terminals": what a script (or the page)
/// gets for good and bad input, with the hosts reached server to server.
@Suite struct PortalAPITests {
    let folder = TemporaryDirectory()

    func withPortal(_ body: (Sandbox, Service, Service) throws -> Void) throws {
        let sandbox = try Sandbox.start(configuration: try sandboxConfiguration(basePort: 0, dataDirectory: folder.url))
        defer { sandbox.stop() }
        let eu = try #require(sandbox.hosts.first { $0.name == "EU" })
        try body(sandbox, Service(name: "portal", baseURL: sandbox.portal.url), Service(name: "EU", baseURL: eu.url))
    }

    @Test func findsConfirmsAndThenRefusesAUsedCode() throws {
        try withPortal { sandbox, portal, eu in
            let begun = eu.call(
                "POST", "/terminal/v1/registrations", body: ["deviceId": "portal-api-1", "deviceModel": "iPhone16,1", "osVersion": "18.1"])
            let code = try #require(begun.string("challengeCode"), "\(begun)")

            let found = portal.call("GET", "/api/regions/EU/registrations/\(code.lowercased().replacingOccurrences(of: "-", with: ""))")
            #expect(found.status == 200, "\(found)")
            #expect(found.string("challengeCode") == code)
            #expect(found.string("deviceId") == "portal-api-1")
            #expect(found.string("deviceModel") == "iPhone16,1")
            #expect(found.string("createdAt") != nil && found.string("expiresAt") != nil)

            let confirmed = portal.call("POST", "/api/regions/EU/registrations/\(code)/confirm", body: ["merchantId": "EU-M01"])
            #expect(confirmed.status == 200, "\(confirmed)")
            let backOffice = try #require(confirmed.string("backofficeCode"))
            #expect(backOffice.hasPrefix("EU-"))

            let again = portal.call("GET", "/api/regions/EU/registrations/\(code)")
            #expect(again.status == 409 && again.errorCode == "challenge_used", "\(again)")
            let twice = portal.call("POST", "/api/regions/EU/registrations/\(code)/confirm", body: ["merchantId": "EU-M01"])
            #expect(twice.status == 409 && twice.errorCode == "challenge_used", "\(twice)")

            // The region's back-office key never reaches the browser.
            let key = try #require(sandbox.hosts.first { $0.name == "EU" }).configuration.fixtures.backOfficeKey
            let merchants = portal.call("GET", "/api/regions/EU/merchants")
            #expect(merchants.status == 200)
            for reply in [found, confirmed, again, merchants] { #expect(!reply.text.contains(key)) }
        }
    }

    @Test func aCodeFromAnotherRegionNamesThatRegion() throws {
        try withPortal { sandbox, portal, _ in
            let anz = Service(baseURL: try #require(sandbox.hosts.first { $0.name == "ANZ" }).url)
            let begun = anz.call(
                "POST", "/terminal/v1/registrations", body: ["deviceId": "portal-api-2", "deviceModel": "iPhone16,1", "osVersion": "18.1"])
            let code = try #require(begun.string("challengeCode"), "\(begun)")
            let wrong = portal.call("GET", "/api/regions/EU/registrations/\(code)")
            #expect(wrong.status == 409 && wrong.errorCode == "challenge_other_region", "\(wrong)")
            #expect(wrong.text.contains("ANZ"))
            #expect(portal.call("GET", "/api/regions/ANZ/registrations/\(code)").status == 200)
        }
    }

    @Test func badInputIsRefusedBeforeAnyHostIsAsked() throws {
        try withPortal { sandbox, portal, _ in
            let cases: [(String, String, [String: Any]?, Int, String, String?)] = [
                ("GET", "/api/regions/XX/registrations/ABCD-EFGH", nil, 404, "environment_not_found", "region"),
                ("GET", "/api/regions/EU/registrations/ABC", nil, 400, "invalid_request", "challengeCode"),
                ("GET", "/api/regions/EU/registrations/AB%3FCD-EFGH", nil, 400, "invalid_request", "challengeCode"),
                // An encoded slash is a slash by the time routes are matched: no route, no relay.
                ("GET", "/api/regions/EU/registrations/ABCD%2FEFGH", nil, 404, "not_found", nil),
                ("GET", "/api/regions/EU/registrations/ZZZZ-ZZZZ", nil, 404, "challenge_not_found", "challengeCode"),
                ("POST", "/api/regions/EU/registrations/ABCD-EFGH/confirm", [:], 400, "invalid_request", "terminalId"),
                ("POST", "/api/regions/EU/registrations/ABCD-EFGH/confirm", ["terminalId": "../x"], 400, "invalid_request", "terminalId"),
                ("POST", "/api/regions/EU/registrations/ABCD-EFGH/confirm", ["merchantId": 7], 400, "invalid_json", nil),
                ("POST", "/api/regions/EU/terminals/a%3Fb/unlock", nil, 400, "invalid_request", "terminalId"),
                ("POST", "/api/regions/EU/terminals/NOPE/unregister", nil, 404, "terminal_not_found", nil),
            ]
            for (method, path, body, status, code, field) in cases {
                let reply = portal.call(method, path, body: body)
                #expect(reply.status == status && reply.errorCode == code, "\(method) \(path): \(reply)")
                if let field { #expect(reply.errorField == field, "\(method) \(path): \(reply)") }
            }

            try #require(sandbox.hosts.first { $0.name == "ING" }).stop()
            let down = portal.call("GET", "/api/regions/ING/merchants")
            #expect(down.status == 502 && down.errorCode == "environment_unavailable", "\(down)")
        }
    }
}
