import SandboxHTTP
import SandboxHTTPClient
import SandboxWire

/// Every host the portal drives, by region, in catalogue order.
struct HostLinks: Sendable {
    let links: [HostLink]

    init(_ environments: [PortalSimulator.Environment], client: HTTPClient) {
        links = environments.map { HostLink(environment: $0, client: client) }
    }

    /// The host of a region the page picked; `environment_not_found` for any other text.
    func link(_ region: String) throws(HTTPError) -> HostLink {
        guard let link = links.first(where: { $0.environment.region == region }) else {
            throw HTTPError(
                status: 404, code: .environmentNotFound, message: "The portal drives no host for that region.",
                field: "region")
        }
        return link
    }

    /// The region whose host made a challenge code, when it is not `host`: a tester who picked
    /// the wrong region is told which one to pick.
    func owner(ofChallenge code: String, except host: HostLink) -> String? {
        links.first { link in
            guard link.environment.region != host.environment.region,
                let answer = try? link.send(.get, "/backoffice/v1/challenges/\(code)")
            else { return false }
            // Waiting, confirmed or expired there: that host made it.
            return answer.status < 500 && answer.errorCode != .challengeNotFound
        }?.environment.region
    }
}
