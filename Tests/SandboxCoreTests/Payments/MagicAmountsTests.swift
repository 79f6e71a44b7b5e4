import Foundation
import SandboxCore
import SandboxWire
import Testing
import SandboxTestSupport

@Suite struct MagicAmountsTests {
    static let shippedFile = Paths.sandboxData.appendingPathComponent(MagicAmounts.fileName)
    static let euro = Currency(code: "EUR")!
    static func shipped() throws -> MagicAmounts { try MagicAmounts.load(contentsOf: shippedFile) }

    @Test func theShippedTableHasWorldlinesTriggerAndTheContractsEightRules() throws {
        let magic = try Self.shipped()
        #expect(magic.defaultTrigger == 42)
        #expect(magic.regionTriggers.isEmpty)
        #expect(magic.rules.map(\.digits) == ["05", "51", "54", "55", "65", "68", "91", "96"])
        #expect(magic.rules.allSatisfy { $0.outcome.responseCode == $0.digits })
    }

    struct Expectation: Sendable, CustomTestStringConvertible {
        let baseAmount: Int
        let kind: MagicOutcome.Kind
        let status: TransactionStatus
        let responseCode: String
        var testDescription: String { "\(baseAmount) → \(kind)" }
    }

    static let expectations: [Expectation] = [
        .init(baseAmount: 4205, kind: .doNotHonour, status: .DECLINED, responseCode: "05"),
        .init(baseAmount: 4251, kind: .insufficientFunds, status: .DECLINED, responseCode: "51"),
        .init(baseAmount: 4254, kind: .expiredCard, status: .DECLINED, responseCode: "54"),
        .init(baseAmount: 4255, kind: .wrongPin, status: .DECLINED, responseCode: "55"),
        .init(baseAmount: 4265, kind: .pinRequired, status: .PIN_REQUESTED, responseCode: "65"),
        .init(baseAmount: 4268, kind: .authorisationTimeout, status: .ONGOING, responseCode: "68"),
        .init(baseAmount: 4291, kind: .issuerUnavailable, status: .DECLINED, responseCode: "91"),
        .init(baseAmount: 4296, kind: .systemMalfunction, status: .ERROR, responseCode: "96"),
        // 42.XX without a rule answers code XX as a decline; 42.00 approves.
        .init(baseAmount: 4233, kind: .decline, status: .DECLINED, responseCode: "33"),
        .init(baseAmount: 4201, kind: .decline, status: .DECLINED, responseCode: "01"),
        .init(baseAmount: 4299, kind: .decline, status: .DECLINED, responseCode: "99"),
        .init(baseAmount: 4200, kind: .approve, status: .CLEARED, responseCode: "00"),
        // Every amount outside 42.00–42.99 approves, whatever its last two digits: the seed's own
        // example 11.91 EUR, the old "…51" and "…65" endings, and the neighbours of the range.
        .init(baseAmount: 1191, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 1051, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 1065, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 96, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 14251, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 4199, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 4300, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 42, kind: .approve, status: .CLEARED, responseCode: "00"),
        .init(baseAmount: 1, kind: .approve, status: .CLEARED, responseCode: "00"),
    ]

    @Test(arguments: expectations)
    func aBaseAmountOf42XXAnswersCodeXX(_ expected: Expectation) throws {
        let outcome = try Self.shipped().outcome(forBaseAmount: expected.baseAmount, currency: Self.euro, region: "EU")
        #expect(outcome.kind == expected.kind)
        #expect(outcome.status == expected.status)
        #expect(outcome.responseCode == expected.responseCode)
    }

    @Test func approvalAnswersZeroZeroApproved() throws {
        let outcome = try Self.shipped().outcome(forBaseAmount: 1234, currency: Self.euro, region: "EU")
        #expect(outcome == .approved)
        #expect(outcome.responseMessage == "Approved")
    }

    @Test func anUnlistedCodeIsDeclinedWithAMessageNamingIt() throws {
        let outcome = try Self.shipped().outcome(forBaseAmount: 4214, currency: Self.euro, region: "EU")
        #expect(outcome == MagicOutcome(kind: .decline, responseCode: "14", responseMessage: "Declined by the issuer (response code 14)"))
    }

    @Test func theTipIsTakenOffBeforeTheAmountIsRead() throws {
        let magic = try Self.shipped()
        // 44.51 with a 2.00 tip: the base 42.51 is magic.
        #expect(magic.outcome(requestedAmount: 4451, tipAmount: 200, currency: Self.euro, region: "EU").kind == .insufficientFunds)
        // 42.51 with a 0.51 tip: the base 42.00 approves, although the total is 42.51.
        #expect(magic.outcome(requestedAmount: 4251, tipAmount: 51, currency: Self.euro, region: "EU") == .approved)
        // 43.05 with a 1.00 tip: base 42.05, do not honour.
        #expect(magic.outcome(requestedAmount: 4305, tipAmount: 100, currency: Self.euro, region: "EU").kind == .doNotHonour)
        #expect(magic.outcome(requestedAmount: 4296, tipAmount: nil, currency: Self.euro, region: "EU").kind == .systemMalfunction)
    }

    struct Scaled: Sendable, CustomTestStringConvertible {
        let currency: String
        let baseAmount: Int
        let digits: String?
        var testDescription: String { "\(baseAmount) \(currency) → \(digits ?? "not magic")" }
    }

    /// XX counts hundredths of the major unit; a currency without hundredths uses 4200–4299 minor units.
    static let scaled: [Scaled] = [
        .init(currency: "KWD", baseAmount: 42510, digits: "51"),
        .init(currency: "KWD", baseAmount: 42000, digits: "00"),
        .init(currency: "KWD", baseAmount: 42511, digits: nil),
        .init(currency: "KWD", baseAmount: 4251, digits: nil),
        .init(currency: "JPY", baseAmount: 4251, digits: "51"),
        .init(currency: "JPY", baseAmount: 42, digits: nil),
        .init(currency: "JPY", baseAmount: 4300, digits: nil),
        .init(currency: "PLN", baseAmount: 4265, digits: "65"),
        .init(currency: "CZK", baseAmount: 425100, digits: nil),
    ]

    @Test(arguments: scaled)
    func theRangeFollowsTheCurrencysExponent(_ expected: Scaled) throws {
        let currency = try #require(Currency(code: expected.currency))
        #expect(MagicAmounts.responseDigits(of: expected.baseAmount, trigger: 42, exponent: currency.exponent) == expected.digits)
        let outcome = try Self.shipped().outcome(forBaseAmount: expected.baseAmount, currency: currency, region: "EU")
        #expect((outcome != .approved) == (expected.digits != nil && expected.digits != "00"))
    }

    @Test func aRegionsOwnTriggerMovesItsRange() throws {
        let document = #"{"triggerAmounts": {"default": 42, "PAYPHONE": 100}, "rules": [{"digits": "51", "outcome": "insufficientFunds", "status": "DECLINED", "responseCode": "51", "responseMessage": "Insufficient funds"}]}"#
        let magic = try MagicAmounts.decode(Data(document.utf8), file: "magic-amounts.json")
        let koruna = try #require(Currency(code: "CZK"))
        #expect(magic.trigger(region: "PAYPHONE") == 100)
        #expect(magic.trigger(region: "EU") == 42)
        #expect(magic.outcome(forBaseAmount: 10051, currency: koruna, region: "PAYPHONE").kind == .insufficientFunds)
        #expect(magic.outcome(forBaseAmount: 4251, currency: koruna, region: "PAYPHONE") == .approved)
        #expect(magic.outcome(forBaseAmount: 4251, currency: Self.euro, region: "EU").kind == .insufficientFunds)
        #expect(magic.outcome(forBaseAmount: 10051, currency: Self.euro, region: "EU") == .approved)
    }

    @Test func aTriggerForARegionTheHostsDoNotServeIsRefused() throws {
        let document = #"{"triggerAmounts": {"default": 42, "EUX": 10}, "rules": []}"#
        let magic = try MagicAmounts.decode(Data(document.utf8), file: "magic-amounts.json")
        let error = #expect(throws: CatalogueError.self) { try magic.requireRegions(["EU", "ANZ"]) }
        #expect(error?.description == #"magic-amounts.json: triggerAmounts.EUX: "EUX" is not a region of environments.json"#)
        try magic.requireRegions(["EU", "EUX"])
        try Self.shipped().requireRegions(["EU"])
    }

    @Test func aTablesOwnRuleIsUsed() throws {
        let document = #"{"triggerAmounts": {"default": 42}, "rules": [{"digits": "13", "outcome": "doNotHonour", "status": "DECLINED", "responseCode": "N7", "responseMessage": "Decline for CVV2 failure"}]}"#
        let magic = try MagicAmounts.decode(Data(document.utf8), file: "magic-amounts.json")
        let outcome = magic.outcome(forBaseAmount: 4213, currency: Self.euro, region: "EU")
        #expect(outcome.kind == .doNotHonour)
        #expect(outcome.responseCode == "N7")
        #expect(outcome.responseMessage == "Decline for CVV2 failure")
        #expect(magic.outcome(forBaseAmount: 1013, currency: Self.euro, region: "EU") == .approved)
        // 42.51 has no rule in this table: a plain decline with code 51.
        #expect(magic.outcome(forBaseAmount: 4251, currency: Self.euro, region: "EU") == .declined(responseCode: "51"))
    }

    static let minimal = #"""
    {"triggerAmounts": {"default": 42},
     "rules": [
      {"digits": "51", "outcome": "insufficientFunds", "status": "DECLINED", "responseCode": "51", "responseMessage": "Insufficient funds"},
      {"digits": "65", "outcome": "pinRequired", "status": "PIN_REQUESTED", "responseCode": "65", "responseMessage": "PIN required"}
    ]}
    """#

    static let broken: [BrokenDocument] = [
        .init(document: "[]", "magic-amounts.json: (root): expected an object"),
        .init(document: #"{"rules": []}"#, "magic-amounts.json: triggerAmounts: missing"),
        .init(document: #"{"triggerAmounts": {"default": 42}}"#, "magic-amounts.json: rules: missing"),
        .init(document: #"{"triggerAmounts": {"default": 42}, "rules": [], "default": "approve"}"#,
              "magic-amounts.json: default: unknown field (expected one of triggerAmounts, rules)"),
        .init(#"{"default": 42}"#, #"{"EU": 42}"#, "magic-amounts.json: triggerAmounts.default: missing"),
        .init(#"{"default": 42}"#, #"{"default": 42, "eu": 42}"#,
              #"magic-amounts.json: triggerAmounts.eu: "eu" is neither "default" nor a region id (upper-case letters, digits and _)"#),
        .init(#"{"default": 42}"#, #"{"default": 0}"#,
              "magic-amounts.json: triggerAmounts.default: must be a whole number of major units from 1 to 1000000 (42 for 42.XX), not 0"),
        .init(#"{"default": 42}"#, #"{"default": 42, "EU": 1000001}"#,
              "magic-amounts.json: triggerAmounts.EU: must be a whole number of major units from 1 to 1000000 (42 for 42.XX), not 1000001"),
        .init(#"{"default": 42}"#, #"{"default": 42.5}"#, "magic-amounts.json: triggerAmounts.default: expected a whole number"),
        .init(#"{"default": 42}"#, #"42"#, "magic-amounts.json: triggerAmounts: expected an object"),
        .init(#""digits": "51""#, #""digits": "5""#,
              #"magic-amounts.json: rules[0].digits: "5" is not two digits (the XX of a trigger amount 42.XX, e.g. "51")"#),
        .init(#""digits": "51""#, #""digits": "151""#,
              #"magic-amounts.json: rules[0].digits: "151" is not two digits (the XX of a trigger amount 42.XX, e.g. "51")"#),
        .init(#""digits": "51""#, #""digits": 51"#, "magic-amounts.json: rules[0].digits: expected a string"),
        .init(#""digits": "65""#, #""digits": "51""#, #"magic-amounts.json: rules[1].digits: digits "51" already have a rule"#),
        .init(#""outcome": "pinRequired""#, #""outcome": "askForPin""#,
              #"magic-amounts.json: rules[1].outcome: "askForPin" is not an outcome (one of approve, doNotHonour, insufficientFunds, expiredCard, wrongPin, pinRequired, authorisationTimeout, issuerUnavailable, decline, systemMalfunction)"#),
        .init(#""status": "PIN_REQUESTED""#, #""status": "DECLINED""#,
              #"magic-amounts.json: rules[1].status: must be PIN_REQUESTED for outcome pinRequired, not "DECLINED""#),
        .init(#""status": "DECLINED""#, #""status": "CLEARED""#,
              #"magic-amounts.json: rules[0].status: must be DECLINED for outcome insufficientFunds, not "CLEARED""#),
        .init(#""responseCode": "65""#, #""responseCode": "065""#,
              #"magic-amounts.json: rules[1].responseCode: "065" is not a response code (two letters or digits, e.g. "51")"#),
        .init(#""responseMessage": "PIN required""#, #""responseMessage": " ""#,
              "magic-amounts.json: rules[1].responseMessage: must not be empty"),
        .init(#", "responseMessage": "Insufficient funds""#, "", "magic-amounts.json: rules[0].responseMessage: missing"),
        .init(#""responseMessage": "Insufficient funds""#, #""responseMessage": "Insufficient funds", "note": "x""#,
              "magic-amounts.json: rules[0].note: unknown field (expected one of digits, outcome, status, responseCode, responseMessage)"),
        .init(#"]}"#, #"]"#, "magic-amounts.json: (root): not valid JSON: unexpected end of file"),
    ]

    @Test func theMinimalDocumentIsValid() throws {
        let magic = try MagicAmounts.decode(Data(Self.minimal.utf8), file: "magic-amounts.json")
        #expect(magic.rules.count == 2)
        #expect(magic.defaultTrigger == 42)
    }

    @Test func aTableSurvivesEncodingAndDecoding() throws {
        let document = #"{"triggerAmounts": {"default": 7, "ANZ": 99}, "rules": [{"digits": "13", "outcome": "decline", "status": "DECLINED", "responseCode": "N7", "responseMessage": "CVV2"}]}"#
        let magic = try MagicAmounts.decode(Data(document.utf8), file: "magic-amounts.json")
        let again = try MagicAmounts.decode(try JSONEncoder().encode(magic), file: "magic-amounts.json")
        #expect(again == magic)
        #expect(again.trigger(region: "ANZ") == 99 && again.trigger(region: "EU") == 7)
    }

    @Test(arguments: broken)
    func aBrokenTableIsRefusedWithOneExactLine(_ broken: BrokenDocument) throws {
        let data = try broken.apply(to: Self.minimal)
        let error = #expect(throws: CatalogueError.self) {
            try MagicAmounts.decode(data, file: "magic-amounts.json")
        }
        #expect(error?.description == broken.message)
    }

    @Test func aMissingFileIsUnreadable() {
        let url = URL(fileURLWithPath: "/nonexistent/magic-amounts.json")
        let error = #expect(throws: CatalogueError.self) { try MagicAmounts.load(contentsOf: url) }
        #expect(error?.code == .unreadable)
        #expect(error?.description == "magic-amounts.json: (root): cannot read /nonexistent/magic-amounts.json: no such file")
    }
}
