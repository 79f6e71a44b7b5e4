import Foundation
import SandboxCore
import Testing
import TestSupport

@Suite struct MagicAmountsTests {
    static let shippedFile = Paths.sandboxData.appendingPathComponent(MagicAmounts.fileName)

    @Test func theShippedTableLoadsWithTheContractsEightRules() throws {
        let magic = try MagicAmounts.load(contentsOf: Self.shippedFile)
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
        .init(baseAmount: 1005, kind: .doNotHonour, status: .declined, responseCode: "05"),
        .init(baseAmount: 1051, kind: .insufficientFunds, status: .declined, responseCode: "51"),
        .init(baseAmount: 54, kind: .expiredCard, status: .declined, responseCode: "54"),
        .init(baseAmount: 99955, kind: .wrongPin, status: .declined, responseCode: "55"),
        .init(baseAmount: 2065, kind: .pinRequired, status: .pinRequested, responseCode: "65"),
        .init(baseAmount: 168, kind: .authorisationTimeout, status: .ongoing, responseCode: "68"),
        .init(baseAmount: 10091, kind: .issuerUnavailable, status: .declined, responseCode: "91"),
        .init(baseAmount: 96, kind: .systemMalfunction, status: .error, responseCode: "96"),
        // Everything else approves, including the neighbours of the magic digits.
        .init(baseAmount: 1000, kind: .approve, status: .cleared, responseCode: "00"),
        .init(baseAmount: 1, kind: .approve, status: .cleared, responseCode: "00"),
        .init(baseAmount: 1050, kind: .approve, status: .cleared, responseCode: "00"),
        .init(baseAmount: 1052, kind: .approve, status: .cleared, responseCode: "00"),
        .init(baseAmount: 1015, kind: .approve, status: .cleared, responseCode: "00"),
        .init(baseAmount: 5100, kind: .approve, status: .cleared, responseCode: "00"),
        .init(baseAmount: 1099, kind: .approve, status: .cleared, responseCode: "00"),
    ]

    @Test(arguments: expectations)
    func theLastTwoDigitsOfTheBaseAmountPickTheOutcome(_ expected: Expectation) throws {
        let outcome = try MagicAmounts.load(contentsOf: Self.shippedFile).outcome(forBaseAmount: expected.baseAmount)
        #expect(outcome.kind == expected.kind)
        #expect(outcome.status == expected.status)
        #expect(outcome.responseCode == expected.responseCode)
    }

    @Test func approvalAnswersZeroZeroApproved() throws {
        let outcome = try MagicAmounts.load(contentsOf: Self.shippedFile).outcome(forBaseAmount: 1234)
        #expect(outcome == .approved)
        #expect(outcome.responseMessage == "Approved")
    }

    @Test func theTipIsTakenOffBeforeTheDigitsAreRead() throws {
        let magic = try MagicAmounts.load(contentsOf: Self.shippedFile)
        // 12.51 with a 2.00 tip: the base 10.51 is magic.
        #expect(magic.outcome(requestedAmount: 1251, tipAmount: 200).kind == .insufficientFunds)
        // 10.51 with a 0.51 tip: the base 10.00 is not, although the total ends in 51.
        #expect(magic.outcome(requestedAmount: 1051, tipAmount: 51) == .approved)
        // 11.05 with a 1.00 tip: base 10.05, do not honour.
        #expect(magic.outcome(requestedAmount: 1105, tipAmount: 100).kind == .doNotHonour)
        #expect(magic.outcome(requestedAmount: 1096, tipAmount: nil).kind == .systemMalfunction)
    }

    @Test func aTablesOwnRuleIsUsed() throws {
        let document = #"{"rules": [{"digits": "13", "outcome": "doNotHonour", "status": "DECLINED", "responseCode": "N7", "responseMessage": "Decline for CVV2 failure"}]}"#
        let magic = try MagicAmounts.decode(Data(document.utf8), file: "magic-amounts.json")
        let outcome = magic.outcome(forBaseAmount: 4213)
        #expect(outcome.kind == .doNotHonour)
        #expect(outcome.responseCode == "N7")
        #expect(outcome.responseMessage == "Decline for CVV2 failure")
        #expect(magic.outcome(forBaseAmount: 4251) == .approved)
    }

    static let minimal = #"""
    {"rules": [
      {"digits": "51", "outcome": "insufficientFunds", "status": "DECLINED", "responseCode": "51", "responseMessage": "Insufficient funds"},
      {"digits": "65", "outcome": "pinRequired", "status": "PIN_REQUESTED", "responseCode": "65", "responseMessage": "PIN required"}
    ]}
    """#

    static let broken: [BrokenDocument] = [
        .init(document: "[]", "magic-amounts.json: (root): expected an object"),
        .init(document: "{}", "magic-amounts.json: rules: missing"),
        .init(document: #"{"rules": [], "default": "approve"}"#,
              "magic-amounts.json: default: unknown field (expected one of rules)"),
        .init(#""digits": "51""#, #""digits": "5""#,
              #"magic-amounts.json: rules[0].digits: "5" is not two digits (the last two of the base amount, e.g. "51")"#),
        .init(#""digits": "51""#, #""digits": "151""#,
              #"magic-amounts.json: rules[0].digits: "151" is not two digits (the last two of the base amount, e.g. "51")"#),
        .init(#""digits": "51""#, #""digits": 51"#, "magic-amounts.json: rules[0].digits: expected a string"),
        .init(#""digits": "65""#, #""digits": "51""#, #"magic-amounts.json: rules[1].digits: digits "51" already have a rule"#),
        .init(#""outcome": "pinRequired""#, #""outcome": "askForPin""#,
              #"magic-amounts.json: rules[1].outcome: "askForPin" is not an outcome (one of approve, doNotHonour, insufficientFunds, expiredCard, wrongPin, pinRequired, authorisationTimeout, issuerUnavailable, systemMalfunction)"#),
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
