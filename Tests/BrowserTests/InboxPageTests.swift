import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// The webhook inbox's page as a tester uses it: what arrived, filtered, one delivery's headers and
/// body, and the inbox emptied.
@Suite(.serialized, .blocksThreads) struct InboxPageTests {
    static let available = BrowserPerson.isAvailable

    @Test("a delivery's headers, body and signature verdict; the filter; Clear the inbox empties it", .enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func headersBodyFilterAndClear() throws {
        // One host is enough: the inbox receives its webhooks.
        let running = try InProcessSandbox(regions: ["EU"])
        defer { running.stop() }
        let sandbox = running.sandbox
        let eu = Service(name: "EU", baseURL: try #require(sandbox.endpoints.environments["EU"]))
        let inbox = Service(name: "webhooks", baseURL: sandbox.inbox.url)
        for event in ["payment.succeeded", "payment.failed"] {
            expectReply(eu.call("POST", "/_sandbox/webhooks/trigger", body: ["event": event]), 202, nil, event)
        }
        #expect(eventuallyBlocking { (inbox.call("GET", "/api/events").array("events") ?? []).count == 2 }, "both arrive")

        let seen = try BrowserPerson.run([
            .goto(sandbox.inbox.url + "/"), .waitText("#events tbody", contains: "payment.failed"),
            .fill("Filter", "failed"), .readAll("#events tbody td:nth-child(5)"),
            .clickIn("#events tbody tr", name: "Headers and body"), .inViewport("#delivery"), .read("#delivery-verdict"),
            .readAll("#delivery-headers dt"), .read("#delivery-body"), .click("Close"),
            .fill("Filter", ""), .acceptDialog, .click("Clear the inbox"), .read("#message"), .inViewport("#message"),
            .waitText("#events tbody", contains: "No webhooks yet"),
        ])
        #expect(seen[0] as? [String] == ["payment.failed"], "the filter keeps the failed one: \(seen)")
        #expect(seen[1] as? Bool == true, "\(seen)")
        #expect((seen[2] as? String)?.hasPrefix("Signature: valid.") == true, "\(seen)")
        let headers = (seen[3] as? [String])?.map { $0.lowercased() } ?? []
        #expect(headers.contains { $0.hasSuffix("-signature") } && headers.contains("content-type"), "the signature header and the content type: \(headers)")
        #expect((seen[4] as? String)?.contains("\"type\": \"payment.failed\"") == true, "the body, pretty: \(seen)")
        #expect(seen[5] as? String == "The inbox is empty." && seen[6] as? Bool == true, "\(seen)")
        #expect(inbox.call("GET", "/api/events").array("events")?.isEmpty == true)
    }
}
