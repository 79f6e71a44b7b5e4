import Foundation
import Launcher
import Testing
import SandboxTestSupport

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

    @Test("past the host's throttle, the portal relays 429 too_many_attempts with the host's Retry-After")
    func aThrottledLookupSaysHowLongToWait() throws {
        try withPortal { _, portal, _ in
            var last: HTTPReply?
            for attempt in 0..<25 {
                let reply = portal.call("GET", "/api/regions/EU/registrations/ZZZZ-\(String(format: "%04d", attempt))")
                last = reply
                if reply.status == 429 { break }
                #expect(reply.status == 404, "\(reply)")
            }
            let throttled = try #require(last)
            #expect(throttled.status == 429 && throttled.errorCode == "too_many_attempts", "\(throttled)")
            let wait = try #require(throttled.header("Retry-After").flatMap { Int($0) }, "\(throttled.headers)")
            #expect((1...60).contains(wait))
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

/// Registration tokens through the portal: refreshed with the same value, e-mailed, and the lock
/// a valid one puts on its terminal against challenge codes.
@Suite struct PortalTokenAPITests {
    let folder = TemporaryDirectory()

    @Test func aRefreshedTokenKeepsItsValueAndLocksTheTerminalUntilItExpires() throws {
        let sandbox = try Sandbox.start(configuration: try sandboxConfiguration(basePort: 0, dataDirectory: folder.url))
        defer { sandbox.stop() }
        let portal = Service(name: "portal", baseURL: sandbox.portal.url)
        let eu = Service(name: "EU", baseURL: try #require(sandbox.hosts.first { $0.name == "EU" }).url)
        let fixtures = try MerchantsFile.load().region("EU")
        let terminal = try #require(fixtures.terminals.first { $0.allows("registrationCode") && $0.allows("portal") }).id

        let issued = portal.call("POST", "/api/regions/EU/registration-tokens", body: ["terminalId": terminal])
        #expect(issued.status == 201, "\(issued)")
        let token = try #require(issued.string("registrationToken"))
        let firstExpiry = try #require(parseTime(issued.string("expiresAt")))

        // While it is valid, a challenge code cannot take the terminal.
        let begun = eu.call("POST", "/terminal/v1/registrations", body: ["deviceId": "token-lock-1", "deviceModel": "iPhone16,1"])
        let code = try #require(begun.string("challengeCode"))
        let locked = portal.call("POST", "/api/regions/EU/registrations/\(code)/confirm", body: ["terminalId": terminal])
        #expect(locked.status == 409 && locked.errorCode == "terminal_locked_by_token", "\(locked)")
        let state = portal.call("GET", "/api/regions/EU/merchants")
        let row = state.objects("merchants").flatMap { $0["terminals"] as? [[String: Any]] ?? [] }.first { $0["terminalId"] as? String == terminal }
        #expect(parseTime(row?["tokenLockedUntil"]) == firstExpiry, "\(row ?? [:])")

        // A minute later, refreshed: the same token, a minute more.
        #expect(eu.call("POST", "/_sandbox/clock", body: ["advanceSeconds": 60]).status == 200)
        let refreshed = portal.call("POST", "/api/regions/EU/registration-tokens/\(token)/refresh")
        #expect(refreshed.status == 200 && refreshed.string("registrationToken") == token, "\(refreshed)")
        let secondExpiry = try #require(parseTime(refreshed.string("expiresAt")))
        #expect(secondExpiry.timeIntervalSince(firstExpiry) >= 60)

        let mailed = portal.call("POST", "/api/regions/EU/registration-tokens/\(token)/email", body: ["email": "owner@example.org"])
        #expect(mailed.status == 200 && mailed.string("emailedTo") == "owner@example.org", "\(mailed)")
        let notMail = portal.call("POST", "/api/regions/EU/registration-tokens/\(token)/email", body: ["email": "nobody"])
        #expect(notMail.status == 400 && notMail.errorField == "email", "\(notMail)")
        let mailbox = portal.call("GET", "/api/regions/EU/mailbox")
        #expect(mailbox.objects("messages").first?["body"].map { "\($0)" }?.contains(token) == true)

        // Past its expiry the lock is gone and the challenge takes the terminal.
        let lifetime = secondExpiry.timeIntervalSince(try #require(parseTime(eu.call("GET", "/_sandbox/clock").string("now"))))
        #expect(eu.call("POST", "/_sandbox/clock", body: ["advanceSeconds": lifetime + 1]).status == 200)
        let again = eu.call("POST", "/terminal/v1/registrations", body: ["deviceId": "token-lock-2", "deviceModel": "iPhone16,1"])
        let fresh = try #require(again.string("challengeCode"), "\(again)")
        let confirmed = portal.call("POST", "/api/regions/EU/registrations/\(fresh)/confirm", body: ["terminalId": terminal])
        #expect(confirmed.status == 200, "\(confirmed)")

        // An unknown or foreign token cannot be refreshed.
        #expect(portal.call("POST", "/api/regions/EU/registration-tokens/rt_eu_00/refresh").errorCode == "registration_token_invalid")
        #expect(portal.call("POST", "/api/regions/EU/registration-tokens/rt_anz_0123456789abcdef0123456789abcdef/refresh").errorCode == "registration_token_wrong_environment")
    }
}
