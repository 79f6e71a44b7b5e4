import Foundation

// MARK: - Command line

struct Arguments {
    let command: String
    private var values: [String: [String]] = [:]

    init(_ arguments: [String]) {
        command = arguments.first ?? "help"
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { fail("unexpected argument \(argument)") }
            let name = String(argument.dropFirst(2))
            guard index + 1 < arguments.count else { fail("--\(name) needs a value") }
            values[name, default: []].append(arguments[index + 1])
            index += 2
        }
    }

    func string(_ name: String) -> String? { values[name]?.last }
    func strings(_ name: String) -> [String] { values[name] ?? [] }
    func required(_ name: String) -> String {
        guard let value = string(name) else { fail("\(command) needs --\(name)") }
        return value
    }
    func int(_ name: String, default value: Int) -> Int {
        guard let text = string(name) else { return value }
        guard let number = Int(text) else { fail("--\(name) must be a whole number") }
        return number
    }
    func double(_ name: String, default value: Double) -> Double {
        guard let text = string(name) else { return value }
        guard let number = Double(text) else { fail("--\(name) must be a number") }
        return number
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-load: \(message)\n".utf8))
    exit(1)
}

func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func wallMillis() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

func json(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}

func object(_ bytes: [UInt8], _ what: String) -> [String: Any] {
    guard let value = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
        fail("\(what): not a JSON object: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
    }
    return value
}
