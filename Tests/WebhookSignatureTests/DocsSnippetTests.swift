import Foundation
import SandboxCrypto
import SandboxTestSupport
import Testing
import WebhookSignature

/// The verification snippets of docs/webhooks/ run as they are: the Swift one is compiled into
/// this test target (DocsVerifySnippet.swift is a link to docs/webhooks/verify.swift), the Python
/// and Node ones run as processes against a sample signed now. docs/webhooks.md includes each verbatim.
@Suite("docs/webhooks.md verification snippets", .blocksThreads)
struct DocsSnippetTests {
    static let folder = Paths.repository.appendingPathComponent("docs/webhooks")
    static let body = Array(#"{"id":"evt_7","type":"payment.succeeded","amount":1050,"merchant":"Café"}"#.utf8)

    static func moneiHeader(body: [UInt8] = body) throws -> String {
        try #require(
            dictionary(try WebhookSigner.headers(scheme: .monei, id: "", timestamp: currentUnixTime(), body: body, secret: Sample.apiKey))[
                "MONEI-Signature"])
    }

    static func standardHeadersJSON() throws -> String {
        let headers = dictionary(
            try WebhookSigner.headers(scheme: .standard, id: "msg_doc", timestamp: currentUnixTime(), body: body, secret: Sample.secret))
        return String(decoding: try JSONSerialization.data(withJSONObject: headers), as: UTF8.self)
    }

    @Test("docs/webhooks.md includes verify.swift, verify.py and verify.mjs verbatim")
    func readmeIncludesSnippets() throws {
        let readme = try String(contentsOf: Paths.repository.appendingPathComponent("docs/webhooks.md"), encoding: .utf8)
        for (file, fence) in [("verify.swift", "swift"), ("verify.py", "python"), ("verify.mjs", "js")] {
            let snippet = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            #expect(readme.contains("```\(fence)\n" + snippet + "```\n"), "docs/webhooks.md does not include docs/webhooks/\(file) verbatim")
        }
    }

    @Test("the Swift snippet accepts a signed webhook and refuses a tampered one")
    func swiftSnippet() throws {
        #expect(receivePaymentWebhook(headers: ["MONEI-Signature": try Self.moneiHeader()], body: Self.body, apiKey: Sample.apiKey))
        #expect(!receivePaymentWebhook(headers: ["MONEI-Signature": try Self.moneiHeader()], body: Self.body + [32], apiKey: Sample.apiKey))
        #expect(!receivePaymentWebhook(headers: [:], body: Self.body, apiKey: Sample.apiKey))
    }

    /// Runs the Python snippet's functions: exit 0 when they return True.
    static func python(_ call: String, header: String, body: [UInt8] = body, secret: String) throws -> ProcessOutput {
        let code = """
            import base64, importlib.util, json, os, sys
            spec = importlib.util.spec_from_file_location("verify", os.environ["SNIPPET"])
            verify = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(verify)
            body, header, secret = base64.b64decode(os.environ["BODY"]), os.environ["HEADER"], os.environ["SECRET"]
            sys.exit(0 if \(call) else 1)
            """
        return try runProcess(
            "python3", ["-c", code],
            environment: [
                "SNIPPET": folder.appendingPathComponent("verify.py").path, "BODY": Base64.encode(body), "HEADER": header,
                "SECRET": secret,
            ])
    }

    @Test("the Python snippet accepts signed webhooks of both schemes and refuses tampered ones")
    func pythonSnippet() throws {
        let monei = try Self.moneiHeader()
        #expect(try Self.python("verify.verify_monei(body, header, secret)", header: monei, secret: Sample.apiKey).status == 0)
        #expect(try Self.python("verify.verify_monei(body, header, secret)", header: monei, body: Self.body + [32], secret: Sample.apiKey).status == 1)
        #expect(try Self.python("verify.verify_monei(body, header, secret)", header: monei, secret: "pk_wrong").status == 1)
        #expect(try Self.python("verify.verify_monei(body, header, secret)", header: monei.replacingOccurrences(of: "v1=", with: "v0="), secret: Sample.apiKey).status == 1)
        let old = try #require(dictionary(try WebhookSigner.headers(scheme: .monei, id: "", timestamp: currentUnixTime() - 301, body: Self.body, secret: Sample.apiKey))["MONEI-Signature"])
        #expect(try Self.python("verify.verify_monei(body, header, secret)", header: old, secret: Sample.apiKey).status == 1)
        let standard = try Self.standardHeadersJSON()
        #expect(try Self.python("verify.verify_standard(body, json.loads(header), secret)", header: standard, secret: Sample.secret).status == 0)
        #expect(
            try Self.python("verify.verify_standard(body, json.loads(header), secret)", header: standard, body: Self.body + [32], secret: Sample.secret)
                .status == 1)
    }

    /// Runs the Node snippet's functions: exit 0 when they return true.
    static func node(_ call: String, header: String, body: [UInt8] = body, secret: String) throws -> ProcessOutput {
        let code = """
            const { verifyMonei, verifyStandard } = await import(process.env.SNIPPET);
            const body = Buffer.from(process.env.BODY, "base64"), header = process.env.HEADER, secret = process.env.SECRET;
            process.exit(\(call) ? 0 : 1);
            """
        return try runProcess(
            "node", ["--input-type=module", "-e", code],
            environment: [
                "SNIPPET": folder.appendingPathComponent("verify.mjs").absoluteString, "BODY": Base64.encode(body), "HEADER": header,
                "SECRET": secret,
            ])
    }

    @Test("the Node snippet accepts signed webhooks of both schemes and refuses tampered ones")
    func nodeSnippet() throws {
        let monei = try Self.moneiHeader()
        let accepted = try Self.node("verifyMonei(body, header, secret)", header: monei, secret: Sample.apiKey)
        #expect(accepted.status == 0, "\(accepted)")
        #expect(try Self.node("verifyMonei(body, header, secret)", header: monei, body: Self.body + [32], secret: Sample.apiKey).status == 1)
        #expect(try Self.node("verifyMonei(body, header, secret)", header: monei, secret: "pk_wrong").status == 1)
        #expect(try Self.node("verifyMonei(body, header, secret)", header: monei.replacingOccurrences(of: "v1=", with: "v0="), secret: Sample.apiKey).status == 1)
        let standard = try Self.standardHeadersJSON()
        let standardAccepted = try Self.node("verifyStandard(body, JSON.parse(header), secret)", header: standard, secret: Sample.secret)
        #expect(standardAccepted.status == 0, "\(standardAccepted)")
        #expect(
            try Self.node("verifyStandard(body, JSON.parse(header), secret)", header: standard, body: Self.body + [32], secret: Sample.secret)
                .status == 1)
    }
}
