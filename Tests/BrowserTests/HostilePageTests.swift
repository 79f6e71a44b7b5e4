import Foundation
import HostTestSupport
import SandboxHTTP
import Testing
import SandboxTestSupport

/// A web page the developer visits while the sandbox runs, in headless Chromium: one on another
/// site that sends what a browser lets any page send (forms, `text/plain`, empty POSTs), and one
/// whose name resolves to 127.0.0.1 (DNS rebinding). Neither changes nor reads anything.
@Suite(.serialized, .blocksThreads) struct HostilePageTests {
    static let available = BrowserPerson.isAvailable

    /// The attacker's page, served from `http://localhost:PORT/` (another site than 127.0.0.1): on
    /// load it fires every write at the sandbox's services and then says "done".
    static func attackPage(host: String, portal: String, wallet: String) -> String {
        let day = #"{"advanceSeconds":86400}"#
        return """
            <!doctype html><title>cat pictures</title><p id="done"></p><ol id="sent"></ol>
            <iframe name="sink" style="display:none"></iframe>
            <script>
            const sent = [];
            async function send(name, url, init) {
              try { await fetch(url, Object.assign({mode: 'no-cors', credentials: 'include'}, init)); sent.push(name + ': sent'); }
              catch (error) { sent.push(name + ': ' + error); }
            }
            function form(name, url, enctype, field, value) {
              const f = document.createElement('form');
              f.method = 'POST'; f.action = url; f.enctype = enctype; f.target = 'sink';
              const input = document.createElement('input'); input.name = field; input.value = value; f.appendChild(input);
              document.body.appendChild(f); f.submit(); sent.push(name + ': submitted');
            }
            (async () => {
              await send('host clock, text/plain', '\(host)/_sandbox/clock', {method: 'POST', headers: {'Content-Type': 'text/plain'}, body: '\(day)'});
              await send('host clock, no type', '\(host)/_sandbox/clock', {method: 'POST', body: new Blob(['\(day)'])});
              await send('host reset, no body', '\(host)/_sandbox/reset', {method: 'POST'});
              await send('wallet rule, text/plain', '\(wallet)/api/rules', {method: 'POST', headers: {'Content-Type': 'text/plain'}, body: '{"action":"approve"}'});
              await send('wallet clock, no type', '\(wallet)/_sandbox/clock', {method: 'POST', body: new Blob(['\(day)'])});
              await send('portal secret rotation, no body', '\(portal)/api/regions/EU/merchants/EU-M01/webhook/rotate-secret', {method: 'POST'});
              form('portal clock, text/plain form', '\(portal)/api/regions/EU/clock', 'text/plain', '{"advanceSeconds":86400,"x":"', '"}');
              await new Promise(resolve => setTimeout(resolve, 500));
              document.getElementById('sent').innerHTML = sent.map(line => '<li>' + line + '</li>').join('');
              document.getElementById('done').textContent = 'done';
            })();
            </script>
            """
    }

    @Test(
        "a page on another site fires forms, text/plain and empty POSTs at the host, the wallet and the portal: nothing moves",
        .enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func crossSiteWritesChangeNothing() throws {
        let running = try InProcessSandbox()
        defer { running.stop() }
        let host = try running.url(of: "EU")
        let portal = Service(name: "portal", baseURL: running.sandbox.portal.url)
        let before = try #require(portal.call("GET", "/api/regions/EU/merchants/EU-M01/webhook").json as? [String: Any])

        var router = Router()
        let page = Self.attackPage(host: host, portal: running.sandbox.portal.url, wallet: running.sandbox.wallet.url)
        router.get("/attack.html") { _ in .text(page, contentType: "text/html; charset=utf-8") }
        let attacker = Server(name: "attacker", configuration: ServerConfiguration(), responder: router)
        try attacker.start()
        defer { attacker.stop() }

        let seen = try BrowserPerson.run([
            .goto("http://localhost:\(attacker.port)/attack.html"), .waitText("#done", contains: "done"), .readAll("#sent li"),
        ])
        let sent = try #require(seen.first as? [String])
        #expect(sent.count == 7 && sent.allSatisfy { $0.hasSuffix("sent") || $0.hasSuffix("submitted") }, "the page sent them all: \(sent)")

        let hostClock = Service(name: "EU", baseURL: host).call("GET", "/_sandbox/clock")
        #expect(hostClock.json.flatMap { ($0 as? [String: Any])?["skewSeconds"] as? Double } == 0, "\(hostClock)")
        let walletClock = Service(name: "wallet", baseURL: running.sandbox.wallet.url).call("GET", "/_sandbox/clock")
        #expect(walletClock.json.flatMap { ($0 as? [String: Any])?["skewSeconds"] as? Double } == 0, "\(walletClock)")
        let rules = Service(name: "wallet", baseURL: running.sandbox.wallet.url).call("GET", "/api/rules")
        #expect((rules.json as? [String: Any])?["rules"] as? [Any] == nil || ((rules.json as? [String: Any])?["rules"] as? [Any])?.isEmpty == true, "\(rules)")
        let after = try #require(portal.call("GET", "/api/regions/EU/merchants/EU-M01/webhook").json as? [String: Any])
        #expect(after["secret"] as? String == before["secret"] as? String, "the webhook secret was not rotated")
    }

    @Test(
        "a page whose name resolves to 127.0.0.1 (DNS rebinding) reads no webhook secret and moves no clock: 421 host_not_allowed",
        .enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func reboundNamesAreRefused() throws {
        let running = try InProcessSandbox()
        defer { running.stop() }
        let portalPort = try #require(URLComponents(string: running.sandbox.portal.url)?.port)
        let hostPort = try #require(URLComponents(string: try running.url(of: "EU"))?.port)
        let secretPath = "/api/regions/EU/merchants/EU-M01/webhook"
        let seen = try BrowserPerson.run(
            [
                .goto("http://127.0.0.1:\(portalPort)\(secretPath)"), .read("body"),
                .goto("http://rebind.test:\(portalPort)\(secretPath)"), .read("body"),
                .goto("http://rebind.test:\(hostPort)/_sandbox/clock"), .read("body"),
            ],
            resolving: ["rebind.test": "127.0.0.1"])
        #expect((seen[0] as? String)?.contains("whsec_") == true, "the secret is there to be read from loopback: \(seen[0])")
        for index in [1, 2] {
            let text = seen[index] as? String ?? ""
            #expect(text.contains("host_not_allowed") && !text.contains("whsec_"), "\(text)")
        }
    }
}
