import Foundation

/// Writes a file only its owner can read (mode 0600), atomically: the device secret and the
/// session token are in `device.json`, and a file made by `Data.write` would be 0644 until
/// changed, and readable by everyone in a shared folder.
///
/// ```swift
/// try OwnerOnlyFile.write(data, to: directory.appendingPathComponent("device.json"))
/// ```
enum OwnerOnlyFile {
    /// Writes `data` to a new owner-only file beside `file`, then renames it over `file`, so a
    /// crash never leaves half a file and the secret is never readable by others. The new file's
    /// name is the process's and a random number's, so two writers in one process (two SDK
    /// instances, tapsim's commands run in a test process) never share it.
    ///
    /// - Throws: `POSIXError` when the file cannot be made, written or renamed.
    static func write(_ data: Data, to file: URL) throws {
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt64.random(in: 0...UInt64.max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw posixError() }
        var written = 0
        let failure: POSIXError? = data.withUnsafeBytes { buffer -> POSIXError? in
            while written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return posixError()
                }
                written += count
            }
            // An existing file of that name keeps its mode through O_TRUNC: make it owner-only too.
            return fchmod(descriptor, 0o600) == 0 ? nil : posixError()
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, file.path) == 0 else {
            let error = posixError()
            unlink(temporary)
            throw error
        }
    }

    private static func posixError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
