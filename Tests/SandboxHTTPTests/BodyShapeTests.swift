import Foundation
import SandboxHTTP
import Testing

/// A request body is held to one shape before it is decoded (issue #17): a key twice in one
/// object is refused, not read first-wins (most other parsers keep the last one, so two readers of
/// the same body would see two requests), and an object of 80,000 keys is refused on its size, in
/// one pass, without a credential's work.
@Suite struct BodyShapeTests {
    struct Sale: Decodable {
        let amount: Int
        let currency: String
    }

    func refusal(_ body: String) -> HTTPError? {
        let request = Request(method: "POST", path: "/", headers: ["content-type": "application/json"], body: Array(body.utf8))
        do {
            _ = try request.decode(Sale.self)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"amount": 1, "currency": "EUR", "amount": 100000}"#, "amount"),
        (#"{"amount": 1, "currency": "EUR", "\u0061mount": 2}"#, "amount"),
        (#"{"amount": 1, "currency": "EUR", "extra": {"k": 1, "k": 2}}"#, "extra.k"),
        (#"{"amount": 1, "currency": "EUR", "items": [{}, {"a": 1, "a": 1}]}"#, "items[1].a"),
    ])
    func aRepeatedKeyIsRefusedAndNamed(body: String, field: String) throws {
        let error = try #require(refusal(body), "\(body) decoded")
        #expect(error.status == 400 && error.code.rawValue == "invalid_json" && error.field == field, "\(error)")
        #expect(error.message.contains("more than once"), "\(error.message)")
    }

    @Test func eightyThousandKeysAreRefusedOnTheirNumber() throws {
        let keys = (0..<80_000).map { #""k\#($0)": 0"# }.joined(separator: ",")
        let error = try #require(refusal(#"{"amount": 1, "currency": "EUR", \#(keys)}"#))
        #expect(error.status == 400 && error.code.rawValue == "invalid_json" && error.message.contains("1000 members"), "\(error)")
    }

    @Test func nestingDeeperThan64IsRefused() throws {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = try #require(refusal(#"{"amount": 1, "currency": "EUR", "x": \#(deep)}"#))
        #expect(error.status == 400 && error.code.rawValue == "invalid_json" && error.message.contains("deeper than 64"), "\(error)")
        #expect(refusal(#"{"amount": 1, "currency": "EUR", "x": \#(String(repeating: "[", count: 60) + String(repeating: "]", count: 60))}"#) == nil)
    }

    @Test func aBodyWithinTheShapeDecodesAsBefore() {
        #expect(refusal(#"{"amount": 1, "currency": "EUR", "note": {"a": 1, "b": [1, 2, {"a": 2}]}}"#) == nil)
    }
}
