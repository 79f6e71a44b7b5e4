import Foundation

/// What can be said about a body for people: its text, and its event type when it is JSON.
struct EventSummary {
    var text: String?
    var type: String?

    init(body: [UInt8]) {
        text = String(validating: body, as: UTF8.self)
        if let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] {
            type = (object["type"] ?? object["event"]) as? String
        }
    }
}
