import Foundation
import SandboxTestSupport
import Testing
import WebhookSignature

@Suite("webhooks listen", .blocksThreads)
struct ListenTests {
    @Test("a signed POST is answered 200 and printed; a tampered one 400 with the reason")
    func receives() throws {
        let listener = try Listener(["--secret", Sample.apiKey, "--json"])
        let headers = try signatureHeaders(.monei, body: Sample.body, secret: Sample.apiKey)
        let accepted = try post(port: listener.port, headers: headers, body: Sample.body)
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(object(accepted.text)?["received"] as? Bool == true)

        var tampered = Sample.body
        tampered[tampered.count - 3] = UInt8(ascii: "9")
        let refused = try post(port: listener.port, headers: headers, body: tampered)
        #expect(refused.status == 400)
        let error = object(refused.text)?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "no_matching_signature", "\(refused.text)")
        #expect(error?["field"] as? String == "header.MONEI-Signature")

        let unsigned = try post(port: listener.port, headers: [:], body: Sample.body)
        #expect(unsigned.status == 400)
        #expect((object(unsigned.text)?["error"] as? [String: Any])?["code"] as? String == "missing_header")

        let events = listener.waitForEvents(3)
        #expect(events.count == 3, "\(listener.stdout)")
        guard events.count == 3 else { return }
        #expect(events[0]["verified"] as? Bool == true)
        #expect(events[0]["status"] as? Int == 200)
        #expect(events[0]["scheme"] as? String == "monei")
        #expect(events[0]["type"] as? String == "payment.succeeded")
        #expect(events[0]["path"] as? String == "/webhooks")
        #expect(events[0]["body"] as? String == String(decoding: Sample.body, as: UTF8.self))
        #expect(events[1]["verified"] as? Bool == false)
        #expect(events[1]["reason"] as? String == "no_matching_signature")
        #expect(events[2]["reason"] as? String == "missing_header")
    }

    @Test("text output: one line per webhook, the body under a verified one")
    func textOutput() throws {
        let listener = try Listener(["--scheme", "standard", "--secret", Sample.secret])
        #expect(listener.lines.first?.contains("(standard, tolerance 300 s)") == true)
        let headers = try signatureHeaders(.standard, body: Sample.body, secret: Sample.secret, id: "msg_text")
        #expect(try post(port: listener.port, path: "/hooks/monei", headers: headers, body: Sample.body).status == 200)
        var wrong = headers
        wrong["webhook-signature"] = "v1a,AAAA"
        #expect(try post(port: listener.port, headers: wrong, body: Sample.body).status == 400)
        _ = eventuallyBlocking { listener.lines.count >= 4 }
        let lines = listener.lines
        #expect(lines.count == 4, "\(listener.stdout)")
        guard lines.count == 4 else { return }
        #expect(lines[1].hasPrefix("verified 200 POST /hooks/monei standard t="))
        #expect(lines[1].contains("id=msg_text type=payment.succeeded (\(Sample.body.count) bytes)"))
        #expect(lines[2] == "  " + String(decoding: Sample.body, as: UTF8.self))
        #expect(lines[3].hasPrefix("rejected 400 POST /webhooks downgrade: "))
    }

    @Test("only POST is accepted; GET /healthz answers for readiness checks")
    func methods() throws {
        let listener = try Listener(["--secret", Sample.apiKey])
        let get = try post(port: listener.port, headers: [:], body: [], method: "GET")
        #expect(get.status == 405)
        #expect(get.headers["allow"] == "POST" || get.headers["Allow"] == "POST")
        #expect(try post(port: listener.port, path: "/healthz", headers: [:], body: [], method: "GET").status == 200)
    }

    @Test("a body larger than the usual 1 MiB server limit is received and verified")
    func largeBody() throws {
        let listener = try Listener(["--secret", Sample.apiKey])
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20)
        let answer = try post(port: listener.port, headers: try signatureHeaders(.monei, body: body, secret: Sample.apiKey), body: body)
        #expect(answer.status == 200, "\(answer.text)")
    }

    @Test("--forward-to relays a verified webhook unchanged and answers with the backend's answer; a refused one is not relayed")
    func forwards() throws {
        // The backend is a second listener with the same secret: it accepts only the original body and signature.
        let backend = try Listener(["--secret", Sample.apiKey, "--json"])
        let relay = try Listener(["--secret", Sample.apiKey, "--json", "--forward-to", backend.url + "/merchant/hook"])
        #expect(relay.lines.first?.hasSuffix("forwarding to \(backend.url)/merchant/hook") == true)

        let headers = try signatureHeaders(.monei, body: Sample.body, secret: Sample.apiKey)
        let answer = try post(port: relay.port, headers: headers, body: Sample.body)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(object(answer.text)?["received"] as? Bool == true)
        let relayed = backend.waitForEvents(1)
        #expect(relayed.count == 1, "\(backend.stdout)")
        #expect(relayed.first?["verified"] as? Bool == true)
        #expect(relayed.first?["path"] as? String == "/merchant/hook")
        #expect(relayed.first?["body"] as? String == String(decoding: Sample.body, as: UTF8.self))
        #expect(relay.waitForEvents(1).first?["forwardStatus"] as? Int == 200)

        var tampered = Sample.body
        tampered[0] = UInt8(ascii: "[")
        #expect(try post(port: relay.port, headers: headers, body: tampered).status == 400)
        let refused = relay.waitForEvents(2).dropFirst().first
        #expect(refused != nil && refused?["forwardStatus"] == nil, "the relay's line of a refused webhook: \(refused ?? [:])")
        // The relay forwards before it answers, and the backend prints before it answers: once
        // the relay answered 400, a forward would already be in the backend's output.
        #expect(backend.events.count == 1, "a refused webhook reached the backend:\n\(backend.stdout)")
    }

    @Test("the backend's refusal is relayed back, and an unreachable backend is a 502")
    func forwardFailures() throws {
        let backend = try Listener(["--secret", "pk_other_key", "--json"])
        let relay = try Listener(["--secret", Sample.apiKey, "--forward-to", backend.url])
        let headers = try signatureHeaders(.monei, body: Sample.body, secret: Sample.apiKey)
        let refused = try post(port: relay.port, headers: headers, body: Sample.body)
        #expect(refused.status == 400)
        #expect((object(refused.text)?["error"] as? [String: Any])?["code"] as? String == "no_matching_signature")

        let down = try Listener(["--secret", Sample.apiKey, "--forward-to", "http://127.0.0.1:\(freePort())/"])
        let unreachable = try post(port: down.port, headers: headers, body: Sample.body)
        #expect(unreachable.status == 502)
        #expect((object(unreachable.text)?["error"] as? [String: Any])?["code"] as? String == "forward_failed")
    }

    @Test("--json records every received header, so a capture verifies again later with standardwebhooks and webhooks verify")
    func captureHeaders() throws {
        let probe = try SpawnedProcess.run("python3", ["-c", "import standardwebhooks"])
        try #require(probe.status == 0, "the Python package standardwebhooks is missing: run scripts/setup\n\(probe)")
        let listener = try Listener(["--scheme", "standard", "--secret", Sample.secret, "--json"])
        let headers = try signatureHeaders(.standard, body: Sample.body, secret: Sample.secret, id: "msg_capture")
        #expect(try post(port: listener.port, path: "/hooks", headers: headers, body: Sample.body).status == 200)
        let captured = try #require(listener.waitForEvents(1).first, "\(listener.stdout)")
        let recorded = try #require(captured["headers"] as? [String: String], "no headers in the capture: \(captured)")
        for (name, value) in headers {
            #expect(recorded[name.lowercased()] == value, "\(name) as captured: \(recorded)")
        }
        #expect(recorded["content-type"] == "application/json", "\(recorded)")
        let body = Array(try #require(captured["body"] as? String).utf8)

        // Checked again from the capture alone, by another library and by the CLI.
        let python = try SpawnedProcess.run(
            "python3",
            ["-c", "import json, os, standardwebhooks; print(standardwebhooks.Webhook(os.environ['SECRET']).verify(os.environ['BODY'].encode(), json.loads(os.environ['HEADERS']))['id'])"],
            environment: [
                "SECRET": Sample.secret, "BODY": String(decoding: body, as: UTF8.self),
                "HEADERS": String(decoding: try JSONSerialization.data(withJSONObject: recorded), as: UTF8.self),
            ])
        #expect(python.status == 0 && python.stdout == "evt_1\n", "\(python)")
        let file = listener.folder.file("captured-headers.txt")
        try recorded.map { "\($0.key): \($0.value)" }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let again = try webhooks(["verify", "--scheme", "standard", "--secret", Sample.secret, "--headers-file", file.path], stdin: body)
        #expect(again.status == 0 && again.stdout.hasPrefix("valid: standard"), "\(again)")
    }

    @Test("--dry-run prints the resolved configuration without the secret, listens on nothing and exits 0")
    func dryRun() throws {
        let port = freePort()
        let run = try webhooks(
            ["listen", "--port", String(port), "--scheme", "standard", "--secret", Sample.secret, "--tolerance", "60", "--json",
             "--forward-to", "http://127.0.0.1:3000/hooks", "--dry-run"])
        #expect(run.status == 0, "\(run)")
        let resolved = try #require(object(run.stdout), "\(run)")
        #expect(resolved["service"] as? String == "webhooks listen")
        #expect(resolved["host"] as? String == "127.0.0.1" && resolved["port"] as? Int == Int(port), "\(resolved)")
        #expect(resolved["scheme"] as? String == "standard" && resolved["tolerance"] as? Int == 60, "\(resolved)")
        #expect(resolved["output"] as? String == "json" && resolved["forwardTo"] as? String == "http://127.0.0.1:3000/hooks")
        #expect(resolved["maxBodyBytes"] as? Int == 10 << 20, "\(resolved)")
        #expect(!run.stdout.contains(Sample.secret), "a dry run printed the secret: \(run.stdout)")
        #expect((try? RawConnection(port: port, timeoutSeconds: 1)) == nil, "something listens on \(port) after a dry run")

        // The options and the secret are still checked.
        let bad = try webhooks(["listen", "--scheme", "standard", "--secret", "whsec_!!!", "--dry-run"])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("webhooks listen: --secret: "), "\(bad)")
    }

    @Test("SIGTERM stops the listener with exit 0")
    func stops() throws {
        let listener = try Listener(["--secret", Sample.apiKey])
        listener.stop()
        #expect(listener.process.terminationStatus == 0)
    }
}
