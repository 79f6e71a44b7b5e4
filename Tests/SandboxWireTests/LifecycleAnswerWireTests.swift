import FastJSON
import Foundation
import SandboxWire
import Testing

/// The terminal-lifecycle answers and back-office bodies, one type each for the host, the SDK and
/// `tapsim`: the host's bytes (sorted keys, an absent optional left out) are the ones it wrote
/// before these types were shared, every answer reads back as it was written, and an answer with
/// only the fields the SDK or `tapsim` needs still decodes.
@Suite struct LifecycleAnswerWireTests {
    /// The host's encoding (`JSON.encode` is `SortedJSONEncoder`) is `json` to the byte, and both
    /// decoders the two sides use read it back as `value`.
    func expectWire<T: Codable & Equatable>(_ value: T, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(String(decoding: try SortedJSONEncoder.encode(value), as: UTF8.self) == json, sourceLocation: sourceLocation)
        #expect(try JSONDecoder().decode(T.self, from: Data(json.utf8)) == value, sourceLocation: sourceLocation)
        #expect(try JSONDecoder().decode(T.self, from: Data(try JSONEncoder().encode(value))) == value, sourceLocation: sourceLocation)
    }

    @Test func registrationChallenge() throws {
        try expectWire(
            RegistrationChallenge(challengeCode: "ABCD-EFGH", expiresAt: "2026-12-01T10:10:00Z", expiresAtUnix: 1_796_119_800),
            #"{"challengeCode":"ABCD-EFGH","expiresAt":"2026-12-01T10:10:00Z","expiresAtUnix":1796119800}"#)
        // beginRegistration reads only the code.
        let bare = try JSONDecoder().decode(RegistrationChallenge.self, from: Data(#"{"challengeCode":"ABCD-EFGH"}"#.utf8))
        #expect(bare == RegistrationChallenge(challengeCode: "ABCD-EFGH", expiresAt: nil, expiresAtUnix: nil))
    }

    @Test func challengeConfirmation() throws {
        try expectWire(
            ChallengeConfirmation(backofficeCode: "EU-483920", terminalId: "EU-T0101", expiresAt: "2026-12-01T10:10:00Z"),
            #"{"backofficeCode":"EU-483920","expiresAt":"2026-12-01T10:10:00Z","terminalId":"EU-T0101"}"#)
        // tapsim reads the code and the terminal; without either the answer is not a confirmation.
        let bare = try JSONDecoder().decode(ChallengeConfirmation.self, from: Data(#"{"backofficeCode":"EU-483920","terminalId":"EU-T0101"}"#.utf8))
        #expect(bare.expiresAt == nil && bare.backofficeCode == "EU-483920")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ChallengeConfirmation.self, from: Data(#"{"terminalId":"EU-T0101"}"#.utf8)) }
    }

    @Test func registrationVerification() throws {
        try expectWire(RegistrationVerification(valid: true, reason: nil, message: nil, terminalId: nil, pinRequired: nil), #"{"valid":true}"#)
        try expectWire(
            RegistrationVerification(valid: true, reason: nil, message: nil, terminalId: "EU-T0101", pinRequired: true),
            #"{"pinRequired":true,"terminalId":"EU-T0101","valid":true}"#)
        try expectWire(
            RegistrationVerification(
                valid: false, reason: "registration_token_expired", message: "The registration token expired; ask for a new one.", terminalId: nil,
                pinRequired: nil),
            #"{"message":"The registration token expired; ask for a new one.","reason":"registration_token_expired","valid":false}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RegistrationVerification.self, from: Data(#"{"reason":"x"}"#.utf8)) }
    }

    @Test func issuedRegistrationToken() throws {
        let token = "rt_eu_0123456789abcdef0123456789abcdef"
        let link = "taponmobile://register?environment=EU&token=" + token
        try expectWire(
            IssuedRegistrationToken(
                registrationToken: token, terminalId: "EU-T0101", expiresAt: "2026-12-02T10:00:00Z", qrPayload: link, qrSvg: "<svg/>", emailedTo: nil),
            #"{"expiresAt":"2026-12-02T10:00:00Z","qrPayload":"taponmobile://register?environment=EU&token=rt_eu_0123456789abcdef0123456789abcdef","qrSvg":"<svg/>","registrationToken":"rt_eu_0123456789abcdef0123456789abcdef","terminalId":"EU-T0101"}"#
        )
        try expectWire(
            IssuedRegistrationToken(
                registrationToken: token, terminalId: "EU-T0101", expiresAt: "2026-12-02T10:00:00Z", qrPayload: "p", qrSvg: "<svg/>",
                emailedTo: "owner@example.com"),
            #"{"emailedTo":"owner@example.com","expiresAt":"2026-12-02T10:00:00Z","qrPayload":"p","qrSvg":"<svg/>","registrationToken":"rt_eu_0123456789abcdef0123456789abcdef","terminalId":"EU-T0101"}"#
        )
        // tapsim's `register issue` needs the token and its terminal only.
        let bare = try JSONDecoder().decode(IssuedRegistrationToken.self, from: Data(#"{"registrationToken":"rt_eu_1","terminalId":"EU-T0101"}"#.utf8))
        #expect(bare.expiresAt == nil && bare.qrPayload == nil && bare.qrSvg == nil && bare.emailedTo == nil)
    }

    @Test func registrationResult() throws {
        try expectWire(
            RegistrationResult(terminalId: "EU-T0101", deviceSecret: "ds_00ff", registeredAt: "2026-12-01T10:00:00Z"),
            #"{"deviceSecret":"ds_00ff","registeredAt":"2026-12-01T10:00:00Z","terminalId":"EU-T0101"}"#)
        // An older host wrote no registeredAt; the device secret is what the SDK cannot do without.
        let older = try JSONDecoder().decode(RegistrationResult.self, from: Data(#"{"deviceSecret":"ds_00ff","terminalId":"EU-T0101"}"#.utf8))
        #expect(older == RegistrationResult(terminalId: "EU-T0101", deviceSecret: "ds_00ff", registeredAt: nil))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RegistrationResult.self, from: Data(#"{"terminalId":"EU-T0101"}"#.utf8)) }
    }

    @Test func loginSession() throws {
        try expectWire(
            LoginSession(sessionToken: "st_00ff", terminalId: "EU-T0101", expiresAt: "2026-12-01T10:10:00Z", expiresAtUnix: 1_796_119_800.5),
            #"{"expiresAt":"2026-12-01T10:10:00Z","expiresAtUnix":1796119800.5,"sessionToken":"st_00ff","terminalId":"EU-T0101"}"#)
        let older = try JSONDecoder().decode(LoginSession.self, from: Data(#"{"expiresAt":"2026-12-01T10:10:00Z","sessionToken":"st_00ff"}"#.utf8))
        #expect(older == LoginSession(sessionToken: "st_00ff", terminalId: nil, expiresAt: "2026-12-01T10:10:00Z", expiresAtUnix: nil))
    }

    @Test func sessionState() throws {
        try expectWire(
            SessionState(terminalId: "EU-T0101", expiresAt: "2026-12-01T10:10:00Z", expiresAtUnix: 1_796_119_800),
            #"{"expiresAt":"2026-12-01T10:10:00Z","expiresAtUnix":1796119800,"terminalId":"EU-T0101"}"#)
        let older = try JSONDecoder().decode(SessionState.self, from: Data(#"{"expiresAt":"2026-12-01T10:10:00Z"}"#.utf8))
        #expect(older == SessionState(terminalId: nil, expiresAt: "2026-12-01T10:10:00Z", expiresAtUnix: nil))
    }

    @Test func relinkedAccount() throws {
        try expectWire(RelinkedAccount(relinkedAt: "2026-12-01T10:00:00Z"), #"{"relinkedAt":"2026-12-01T10:00:00Z"}"#)
        #expect(try JSONDecoder().decode(RelinkedAccount.self, from: Data("{}".utf8)) == RelinkedAccount(relinkedAt: nil))
    }

    @Test func deviceStatus() throws {
        try expectWire(DeviceStatus(registered: true, terminalId: "EU-T0101"), #"{"registered":true,"terminalId":"EU-T0101"}"#)
        try expectWire(DeviceStatus(registered: false, terminalId: nil), #"{"registered":false}"#)
    }

    @Test func supportNumber() throws {
        try expectWire(SupportNumber(supportNumber: "SN-12345678"), #"{"supportNumber":"SN-12345678"}"#)
    }

    @Test func sandboxClockState() throws {
        try expectWire(SandboxClockState(now: "2026-12-01T10:00:00Z", skewSeconds: 90.5), #"{"now":"2026-12-01T10:00:00Z","skewSeconds":90.5}"#)
        // tapsim reads only `now`.
        #expect(try JSONDecoder().decode(SandboxClockState.self, from: Data(#"{"now":"2026-12-01T10:00:00Z"}"#.utf8)).skewSeconds == nil)
    }

    /// The bodies tapsim sends leave an absent optional out, and the host reads them back.
    @Test func backOfficeBodies() throws {
        try expectWire(
            BackOfficeBodies.Confirm(challengeCode: "ABCD-EFGH", terminalId: "EU-T0101", merchantId: nil),
            #"{"challengeCode":"ABCD-EFGH","terminalId":"EU-T0101"}"#)
        try expectWire(
            BackOfficeBodies.Confirm(challengeCode: "ABCD-EFGH", terminalId: nil, merchantId: "EU-M01"),
            #"{"challengeCode":"ABCD-EFGH","merchantId":"EU-M01"}"#)
        try expectWire(BackOfficeBodies.IssueToken(terminalId: "EU-T0101", email: nil), #"{"terminalId":"EU-T0101"}"#)
        try expectWire(
            BackOfficeBodies.IssueToken(terminalId: "EU-T0101", email: "owner@example.com"),
            #"{"email":"owner@example.com","terminalId":"EU-T0101"}"#)
    }
}
