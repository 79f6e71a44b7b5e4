import Foundation
import SandboxTestSupport
import Testing
import WebhookSignature

@Suite("webhooks sign and verify", .blocksThreads)
struct SignVerifyTests {
    @Test("sign prints the MONEI-Signature line of the body on standard input")
    func signMonei() throws {
        let run = try webhooks(["sign", "--secret", Sample.apiKey, "--timestamp", "1700000000"], stdin: Sample.body)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "MONEI-Signature: \(Sample.moneiSignature)\n")
        #expect(run.stderr.isEmpty)
    }

    @Test("sign --scheme standard prints the three Standard Webhooks lines")
    func signStandard() throws {
        let run = try webhooks(
            ["sign", "--scheme", "standard", "--secret", Sample.secret, "--id", "msg_1", "--timestamp", "1700000000"], stdin: Sample.body)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "webhook-id: msg_1\nwebhook-timestamp: 1700000000\nwebhook-signature: \(Sample.standardSignature)\n")
    }

    @Test("sign defaults: now for the timestamp, a fresh msg_ id, the secret from WEBHOOKS_SECRET")
    func signDefaults() throws {
        let before = Int(Date().timeIntervalSince1970)
        let run = try webhooks(["sign", "--scheme", "standard"], stdin: Sample.body, environment: ["WEBHOOKS_SECRET": Sample.secret])
        let after = Int(Date().timeIntervalSince1970)
        #expect(run.status == 0, "\(run)")
        var headers: [String: String] = [:]
        for line in run.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        let id = try #require(headers["webhook-id"])
        #expect(id.hasPrefix("msg_") && id.count == 28)
        let timestamp = try #require(Int(headers["webhook-timestamp"] ?? ""))
        #expect((before...after).contains(timestamp))
        try WebhookVerifier.verify(scheme: .standard, headers: headers, body: Sample.body, secret: Sample.secret, now: timestamp)
    }

    @Test("sign then verify through the CLI, for an empty and a binary body too")
    func signThenVerify() throws {
        for body in [Sample.body, [], (0...255).map { UInt8($0) }] {
            for (scheme, secret) in [("monei", Sample.apiKey), ("standard", Sample.secret)] {
                let signed = try webhooks(["sign", "--scheme", scheme, "--secret", secret], stdin: body)
                #expect(signed.status == 0, "\(signed)")
                let headerArguments = signed.stdout.split(separator: "\n").flatMap { ["--header", String($0)] }
                let verified = try webhooks(["verify", "--scheme", scheme, "--secret", secret] + headerArguments, stdin: body)
                #expect(verified.status == 0, "\(scheme), \(body.count) bytes: \(verified)")
                #expect(verified.stdout.hasPrefix("valid: \(scheme) t="))
                #expect(verified.stdout.hasSuffix(", \(body.count) bytes\n"))
            }
        }
    }

    @Test("verify exits 0 and says what it established")
    func verifyValid() throws {
        let run = try webhooks(
            ["verify", "--secret", Sample.apiKey, "--header", "MONEI-Signature: \(Sample.moneiSignature)", "--now", "1700000100"],
            stdin: Sample.body)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "valid: monei t=1700000000, \(Sample.body.count) bytes\n")
    }

    @Test(
        "verify exits 1 with the reason",
        arguments: [
            (["--header", "MONEI-Signature: \(Sample.moneiSignature)", "--now", "1700000000"], Array(Sample.body.dropLast()),
             "no_matching_signature"),
            (["--header", "MONEI-Signature: \(Sample.moneiSignature)", "--now", "1700000000", "--secret", "pk_wrong"], Sample.body,
             "no_matching_signature"),  // the later --secret wins
            (["--header", "MONEI-Signature: \(Sample.moneiSignature)"], Sample.body, "timestamp_outside_tolerance"),
            (["--header", "MONEI-Signature: \(Sample.moneiSignature)", "--now", "1700000400", "--tolerance", "399"], Sample.body,
             "timestamp_outside_tolerance"),
            (["--header", "Stripe-Signature: \(Sample.moneiSignature)", "--now", "1700000000"], Sample.body, "missing_header"),
            (["--header", "MONEI-Signature: t=1700000000,v0=70f995992a9e1a61b7c104b2ac99e1eac98cc353b5517b0649feba875175e180",
              "--now", "1700000000"], Sample.body, "downgrade"),
            (["--header", "MONEI-Signature: v1=00", "--now", "1700000000"], Sample.body, "malformed_header"),
            (["--header", "MONEI-Signature: \(Sample.moneiSignature)", "--header", "MONEI-Signature: t=1,v1=00", "--now", "1700000000"],
             Sample.body, "malformed_header"),
        ] as [([String], [UInt8], String)])
    func verifyRefused(arguments: [String], body: [UInt8], reason: String) throws {
        let run = try webhooks(["verify", "--secret", Sample.apiKey] + arguments, stdin: body)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.hasPrefix("webhooks verify: \(reason): "), "\(run)")
        #expect(run.stdout.isEmpty)
    }

    static let standardArguments = [
        "--header", "webhook-id: msg_1", "--header", "webhook-timestamp: 1700000000", "--header",
        "webhook-signature: \(Sample.standardSignature)",
    ]

    @Test("--header repeats: every Standard Webhooks header counts, not only the last")
    func repeatedHeaders() throws {
        let base = ["verify", "--scheme", "standard", "--secret", Sample.secret, "--now", "1700000000"]
        let run = try webhooks(base + Self.standardArguments, stdin: Sample.body)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "valid: standard t=1700000000 id=msg_1, \(Sample.body.count) bytes\n")
        let inline = try webhooks(base + Self.standardArguments.filter { $0 != "--header" }.map { "--header=" + $0 }, stdin: Sample.body)
        #expect(inline.status == 0, "\(inline)")
        // Interleaved with other options, in another order, names in another case.
        let mixed = try webhooks(
            ["verify", "--header", "Webhook-Signature: \(Sample.standardSignature)", "--scheme", "standard", "--header",
             "WEBHOOK-ID: msg_1", "--secret", Sample.secret, "--header", "webhook-timestamp:1700000000", "--now", "1700000000"],
            stdin: Sample.body)
        #expect(mixed.status == 0, "\(mixed)")
        let missing = try webhooks(base + Self.standardArguments.dropLast(2), stdin: Sample.body)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("webhooks verify: missing_header: the webhook-signature header is missing"), "\(missing)")
    }

    @Test("--headers-file reads a header dump, request line and unrelated headers included")
    func headersFile() throws {
        let folder = TemporaryDirectory()
        let dump = """
            POST /webhooks HTTP/1.1
            Host: merchant.example
            Content-Type: application/json
            webhook-id: msg_1
            webhook-timestamp: 1700000000
            webhook-signature: \(Sample.standardSignature)

            """
        try Data(dump.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: folder.file("headers.txt"))
        let run = try webhooks(
            ["verify", "--scheme", "standard", "--secret", Sample.secret, "--headers-file", folder.file("headers.txt").path, "--now",
             "1700000000"], stdin: Sample.body)
        #expect(run.status == 0, "\(run)")
        let missingFile = try webhooks(
            ["verify", "--secret", Sample.secret, "--headers-file", folder.file("nope.txt").path], stdin: Sample.body)
        #expect(missingFile.status == 2)
        #expect(missingFile.stderr.contains("cannot read"))
    }

    @Test(
        "usage errors exit 2 with CommandMain's message",
        arguments: [
            ([], "webhooks: a command is required (sign, verify, listen, trigger)\nRun 'webhooks --help' for usage."),
            (["frobnicate"], "webhooks: unknown command 'frobnicate'\nRun 'webhooks --help' for usage."),
            (["sign"], "webhooks sign: --secret SECRET is required (or set WEBHOOKS_SECRET)\nRun 'webhooks sign --help' for usage."),
            (["sign", "--secret", "k", "--scheme", "hmac"],
             "webhooks sign: --scheme must be one of monei, standard, not 'hmac'\nRun 'webhooks sign --help' for usage."),
            (["sign", "--secret", "k", "--id", "msg_1"],
             "webhooks sign: --id is for --scheme standard only (a MONEI signature does not cover an id)\nRun 'webhooks sign --help' for usage."),
            (["sign", "--scheme", "standard", "--secret", "whsec_***"],
             "webhooks sign: --secret: a Standard Webhooks secret is whsec_ followed by non-empty base64\nRun 'webhooks sign --help' for usage."),
            (["sign", "--secret", "k", "--timestamp", "soon"],
             "webhooks sign: --timestamp must be a whole number from 0 to 999999999999, not 'soon'\nRun 'webhooks sign --help' for usage."),
            (["verify", "--secret", "k"],
             "webhooks verify: give the received headers with --header 'Name: value' or --headers-file FILE\nRun 'webhooks verify --help' for usage."),
            (["verify", "--secret", "k", "--header", "MONEI-Signature"],
             "webhooks verify: --header 'MONEI-Signature' must be 'Name: value'\nRun 'webhooks verify --help' for usage."),
            (["verify", "--secret", "k", "--header"], "webhooks verify: --header needs a value ('Name: value')\nRun 'webhooks verify --help' for usage."),
            (["verify", "--secret", "k", "--header", "a: b", "--tolerance", "-1"],
             "webhooks verify: --tolerance must be a whole number from 0 to 2147483647, not '-1'\nRun 'webhooks verify --help' for usage."),
            (["verify", "--header", "a: b", "--bogus"], "webhooks verify: unknown option '--bogus'\nRun 'webhooks verify --help' for usage."),
            (["listen", "--secret", "k", "--forward-to", "ftp://x"],
             "webhooks listen: --forward-to must be an http:// or https:// URL, not 'ftp://x'\nRun 'webhooks listen --help' for usage."),
            (["listen", "--secret", "k", "--port", "70000"],
             "webhooks listen: --port must be a port number from 0 to 65535, not '70000'\nRun 'webhooks listen --help' for usage."),
            (["trigger"], "webhooks trigger: --event NAME is required\nRun 'webhooks trigger --help' for usage."),
        ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try webhooks(arguments)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr == message + "\n", "\(run)")
        #expect(run.stdout.isEmpty)
    }

    @Test("--help for the tool and for each command exits 0", arguments: ["sign", "verify", "listen", "trigger"])
    func help(command: String) throws {
        let tool = try webhooks(["--help"])
        #expect(tool.status == 0)
        #expect(tool.stdout.contains("\n  \(command) "))
        let run = try webhooks([command, "--help"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("USAGE: webhooks \(command) [options]"))
    }
}
