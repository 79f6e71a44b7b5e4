import EnvironmentHost
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxTestSupport
import Testing

/// `/_sandbox/customer/{terminalId}`: what the customer does at a terminal's next card screens,
/// queued by a test and taken in order by the simulated reader.
@Suite struct CustomerRouteTests {
    let folder = TemporaryDirectory()

    func send(_ host: EnvironmentHost, _ method: String, _ path: String, _ body: String? = nil, headers: [String: String] = [:]) -> (Int, [String: Any]) {
        var all = headers
        if body != nil { all["content-type"] = "application/json" }
        let response = host.respond(to: Request(method: method, path: path, headers: all, body: Array((body ?? "").utf8)))
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:])
    }

    func error(_ answer: (Int, [String: Any])) -> (Int, String?, String?) {
        let error = answer.1["error"] as? [String: Any]
        return (answer.0, error?["code"] as? String, error?["field"] as? String)
    }

    @Test("queued in order, read back, taken one by one with the card's catalogue entry, then none")
    func queueAndTake() throws {
        let host = try EnvironmentHostTests.host("EU", clock: SandboxClock(), in: folder.url)
        let path = "/_sandbox/customer/EU-T0101"
        #expect(send(host, "POST", path, #"{"action":"tap","card":"visa-us-dcc","dccOfferAccepted":true}"#).0 == 201)
        let (status, queue) = send(host, "POST", path, #"{"action":"cancel"}"#)
        #expect(status == 201 && (queue["turns"] as? [[String: Any]])?.count == 2, "\(queue)")
        #expect((send(host, "GET", path).1["turns"] as? [[String: Any]])?.first?["card"] as? String == "visa-us-dcc")
        #expect(send(host, "GET", "/_sandbox/customer/EU-T0102").1["turns"] as? [Any] != nil, "another terminal's queue is its own")
        #expect((send(host, "GET", "/_sandbox/customer/EU-T0102").1["turns"] as? [Any])?.isEmpty == true)

        let first = send(host, "POST", path + "/next").1
        let turn = first["turn"] as? [String: Any]
        #expect(turn?["action"] as? String == "tap" && turn?["dccOfferAccepted"] as? Bool == true, "\(first)")
        let cards = first["cards"] as? [[String: Any]]
        #expect(cards?.count == 1 && cards?.first?["pan"] as? String == "4000008400000001" && cards?.first?["country"] as? String == "US", "\(first)")
        let second = send(host, "POST", path + "/next").1
        #expect((second["turn"] as? [String: Any])?["action"] as? String == "cancel" && (second["cards"] as? [Any])?.isEmpty == true, "\(second)")
        let none = send(host, "POST", path + "/next").1
        #expect(none["turn"] is NSNull && (none["cards"] as? [Any])?.isEmpty == true, "\(none)")
    }

    @Test("bad turns are refused with the field, and nothing is queued; an unknown terminal is 404")
    func refusals() throws {
        let host = try EnvironmentHostTests.host("EU", clock: SandboxClock(), in: folder.url)
        let path = "/_sandbox/customer/EU-T0101"
        let cases: [(String, String)] = [
            (#"{"action":"tap"}"#, "card"),
            (#"{"action":"tap","card":"no-such-card"}"#, "card"),
            (#"{"action":"tap","card":"VISA"}"#, "card"),
            (#"{"action":"tap","card":"visa","pin":"12"}"#, "pin"),
            (#"{"action":"tap","card":"visa","afterSeconds":-1}"#, "afterSeconds"),
            (#"{"action":"cancel","card":"visa"}"#, "card"),
            (#"{"action":"noTap","afterSeconds":5}"#, "afterSeconds"),
            (#"{"action":"noTap","dccOfferAccepted":false}"#, "dccOfferAccepted"),
        ]
        for (body, field) in cases {
            let (status, code, named) = error(send(host, "POST", path, body))
            #expect(status == 400 && code == "invalid_request" && named == field, "\(body): \(status) \(code ?? "-") \(named ?? "-")")
        }
        #expect(error(send(host, "POST", path, #"{"action":"wave"}"#)).0 == 400)
        #expect((send(host, "GET", path).1["turns"] as? [Any])?.isEmpty == true, "nothing was queued")
        for method in ["GET", "POST", "DELETE"] {
            let (status, code, field) = error(send(host, method, "/_sandbox/customer/EU-T9999", method == "POST" ? #"{"action":"noTap"}"# : nil))
            #expect(status == 404 && code == "terminal_not_found" && field == "terminalId", "\(method)")
        }
        #expect(error(send(host, "POST", "/_sandbox/customer/EU-T9999/next")).1 == "terminal_not_found")
    }

    @Test("DELETE empties one terminal's queue; a reset empties every queue")
    func clearAndReset() throws {
        let host = try EnvironmentHostTests.host("EU", clock: SandboxClock(), in: folder.url)
        for terminal in ["EU-T0101", "EU-T0102"] {
            #expect(send(host, "POST", "/_sandbox/customer/\(terminal)", #"{"action":"noTap"}"#).0 == 201)
        }
        #expect(send(host, "DELETE", "/_sandbox/customer/EU-T0101").0 == 204)
        #expect((send(host, "GET", "/_sandbox/customer/EU-T0101").1["turns"] as? [Any])?.isEmpty == true)
        #expect((send(host, "GET", "/_sandbox/customer/EU-T0102").1["turns"] as? [Any])?.count == 1, "the other terminal's stays")
        #expect(send(host, "POST", "/_sandbox/reset").0 == 204)
        #expect((send(host, "GET", "/_sandbox/customer/EU-T0102").1["turns"] as? [Any])?.isEmpty == true, "a reset forgets it")
    }
}
