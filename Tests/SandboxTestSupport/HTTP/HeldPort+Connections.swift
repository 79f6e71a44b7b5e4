import Foundation

extension HeldPort {
    /// How many connections reached this socket since the last call (taken and closed; the
    /// kernel completes a handshake without anyone calling accept, so a client that reached the
    /// port is counted even while it still waits for an answer).
    public func takeConnections() -> Int {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        var count = 0
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { break }
            close(connection)
            count += 1
        }
        return count
    }
}
