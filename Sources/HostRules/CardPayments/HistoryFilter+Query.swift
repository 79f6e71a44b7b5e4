import Foundation
import HostStorage
import SandboxCore
import SandboxWire

extension HistoryFilter {
    /// Reads `page`, `itemsPerPage`, `dateFrom`, `dateTo`, `status`, `type`, `paymentMethod`
    /// (lists comma-separated; an empty list is no filter).
    package init(query: [String: String]) throws(PaymentError) {
        self.init()
        func integer(_ name: String, _ range: ClosedRange<Int>, default value: Int) throws(PaymentError) -> Int {
            guard let text = query[name] else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw .invalidRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).", field: "query.\(name)")
            }
            return number
        }
        func date(_ name: String) throws(PaymentError) -> Int64? {
            guard let text = query[name], !text.isEmpty else { return nil }
            guard let date = Wire.parse(text) else {
                throw .invalidRequest("\(name) must be an ISO 8601 date and time, e.g. 2026-11-29T10:00:00.0%2B01:00 (encode the + in a URL).", field: "query.\(name)")
            }
            return date.millisecondsSince1970
        }
        func list<T: RawRepresentable>(_ name: String, _ type: T.Type) throws(PaymentError) -> [String] where T.RawValue == String {
            let values = (query[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for value in values where T(rawValue: value) == nil {
                throw .invalidRequest("\(name) has an unknown value \(value).", field: "query.\(name)")
            }
            return values
        }
        page = try integer("page", 1...1_000_000, default: 1)
        itemsPerPage = try integer("itemsPerPage", 1...200, default: 20)
        from = try date("dateFrom") ?? 0
        to = try date("dateTo") ?? .max
        statuses = try list("status", TransactionStatus.self)
        types = try list("type", TransactionType.self)
        paymentMethods = try list("paymentMethod", PaymentMethod.self)
    }
}
