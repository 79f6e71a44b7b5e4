extension Reader {
    /// The reader's states and the transitions between them, with no effects.
    ///
    /// The actor asks before starting an operation (`start…`, which throws ``ReaderError/busy``
    /// and friends) and reports when it ends (`…Finished`). Going to the background is a flag
    /// beside the state: it drops a prepared connection at once, and an operation that is
    /// running sees the flag and ends itself.
    struct StateMachine: Sendable {
        private(set) var state: ReaderState = .unprepared
        private(set) var isInBackground = false

        /// Before a prepare: allowed when unprepared or ready (a re-prepare).
        mutating func startPreparing() throws(ReaderError) {
            guard !isInBackground else { throw .appInBackground }
            switch state {
            case .unprepared, .ready: state = .preparing
            case .preparing, .reading, .clearing: throw .busy
            }
        }

        /// After a prepare; a success in the background still leaves the reader unprepared.
        mutating func preparingFinished(succeeded: Bool) {
            guard state == .preparing else { return }
            state = succeeded && !isInBackground ? .ready : .unprepared
        }

        /// Before a read, a card reader test or a PIN step: allowed when ready.
        mutating func startReading() throws(ReaderError) {
            guard !isInBackground else { throw .appInBackground }
            switch state {
            case .ready: state = .reading
            case .unprepared: throw .notPrepared
            case .preparing, .reading, .clearing: throw .busy
            }
        }

        /// After a read; `keepsConnection` is false when the read ended by going to the background.
        mutating func readingFinished(keepsConnection: Bool) {
            guard state == .reading else { return }
            state = keepsConnection && !isInBackground ? .ready : .unprepared
        }

        /// Before a clear.
        ///
        /// - Returns: `false` when there is nothing to clear (Geopagos: success at once).
        mutating func startClearing() throws(ReaderError) -> Bool {
            switch state {
            case .unprepared: return false
            case .ready:
                state = .clearing
                return true
            case .preparing, .reading, .clearing: throw .busy
            }
        }

        /// After a clear.
        mutating func clearingFinished() {
            state = .unprepared
        }

        /// The app went to the background: a prepared connection is closed at once.
        ///
        /// - Returns: Whether an operation is running and must be interrupted.
        mutating func enterBackground() -> Bool {
            isInBackground = true
            switch state {
            case .ready:
                state = .unprepared
                return false
            case .preparing, .reading, .clearing:
                return true
            case .unprepared:
                return false
            }
        }

        /// The app came back; the reader stays unprepared until the next prepare.
        mutating func enterForeground() {
            isInBackground = false
        }
    }
}
