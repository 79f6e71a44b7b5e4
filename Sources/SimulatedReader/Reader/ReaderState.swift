/// Where the reader's connection stands.
///
/// | from | call | to |
/// |---|---|---|
/// | `unprepared`, `ready` | ``Reader/prepare(token:)`` | `preparing`, then `ready` (or `unprepared` on failure) |
/// | `ready` | read, card reader test, PIN step | `reading`, then `ready` (`unprepared` after a background) |
/// | `ready` | ``Reader/clear()`` | `clearing`, then `unprepared` |
/// | any | ``Reader/appDidEnterBackground()`` | `unprepared` (a running operation ends itself) |
///
/// While one operation runs (`preparing`, `reading`, `clearing`), every other prepare, read or
/// clear fails with ``ReaderError/busy``.
public enum ReaderState: String, Sendable, Equatable, Hashable {
    /// Not prepared: a read needs ``Reader/prepare(token:)`` first.
    case unprepared
    /// A prepare is running.
    case preparing
    /// Prepared and idle.
    case ready
    /// A read, a card reader test or a PIN step is running.
    case reading
    /// A clear is running.
    case clearing
}
