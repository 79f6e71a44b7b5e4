/// Why a server could not start.
public struct ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Code: Equatable, Sendable {
        case invalidAddress
        case cannotListen
    }

    private let code: Code
    public let description: String

    public static func invalidAddress(_ host: String) -> ServerError {
        ServerError(code: .invalidAddress, description: "\(host) is not an IPv4 address to listen on")
    }

    public static func cannotListen(_ host: String, _ port: UInt16, reason: String = "address in use or not permitted") -> ServerError {
        ServerError(code: .cannotListen, description: "cannot listen on \(host):\(port) (\(reason))")
    }

    public static func == (lhs: ServerError, rhs: ServerError) -> Bool { lhs.code == rhs.code }
}
