import Foundation

/// What differs between Glibc and Darwin for a plain TCP socket, in one place.
enum Sockets {
    /// `SOCK_STREAM`: an enum case in Glibc's import, an `Int32` in Darwin's.
    static var stream: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// A TCP socket whose writes to a closed peer fail with EPIPE instead of raising SIGPIPE:
    /// `MSG_NOSIGNAL` per send on Linux (``sendFlags``), `SO_NOSIGPIPE` on the socket on Darwin.
    static func tcp() -> Int32 {
        let descriptor = socket(AF_INET, stream, 0)
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return descriptor
    }

    static var sendFlags: Int32 {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }
}
