import Foundation
import Launcher
import SandboxTestSupport
import Testing

/// The portal relays a host's catalogue entry, so the page's links work wherever the hosts are.
@Suite struct PortalRelayTests {
    @Test func relaysEachHostsEntryAndNamesWhatIsWrong() throws {
        let folder = TemporaryDirectory()
        let sandbox = try Sandbox.start(configuration: try sandboxConfiguration(basePort: 0, dataDirectory: folder.url))
        defer { sandbox.stop() }
        let port = sandbox.portal.server.port

        let relayed = try get(port, "/api/environments/MBANK")
        #expect(relayed.status == 200)
        #expect(json(relayed)?["id"] as? String == "MBANK")
        #expect(json(relayed)?["currency"] as? String == "PLN")

        let unknown = try get(port, "/api/environments/XX")
        #expect(unknown.status == 404)
        #expect((json(unknown)?["error"] as? [String: Any])?["code"] as? String == "environment_not_found")

        try #require(sandbox.hosts.first { $0.name == "ING" }).stop()
        let down = try get(port, "/api/environments/ING")
        #expect(down.status == 502)
        #expect((json(down)?["error"] as? [String: Any])?["code"] as? String == "environment_unavailable")
    }
}
