import Foundation

/// The shared `main` of every executable: parse, print help, report usage errors with exit 2.
///
/// ```swift
/// CommandMain.run(description, arguments: CommandLine.arguments.dropFirst()) { options in
///     let host = try EnvironmentHost.start(configuration: …)
///     CommandMain.waitForTerminationSignal()
///     host.stop()
/// }
/// ```
public enum CommandMain {
    /// Exit code for a wrong call (unknown option, bad value), as getopt-style tools use.
    public static let usageExitCode: Int32 = 2

    public static func run(
        _ description: CommandDescription, arguments: some Collection<String>,
        _ body: (ParsedArguments) throws -> Void
    ) -> Never {
        do {
            guard let options = try description.parse(Array(arguments)) else {
                print(description.help)
                exit(0)
            }
            try body(options)
            exit(0)
        } catch let error as UsageError {
            fail(description.name, error)
        } catch {
            FileHandle.standardError.write(Data("\(description.name): \(error)\n".utf8))
            exit(1)
        }
    }

    /// Writes a line to standard output at once, unbuffered, so a supervisor reading a pipe sees it.
    public static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Prints a usage error and exits 2.
    public static func fail(_ name: String, _ error: UsageError) -> Never {
        FileHandle.standardError.write(Data("\(name): \(error)\nRun '\(name) --help' for usage.\n".utf8))
        exit(usageExitCode)
    }

    /// Blocks SIGINT and SIGTERM in this thread and every thread started after it.
    ///
    /// Call before starting servers: their threads inherit the mask, so the signal is taken only
    /// by `waitForTerminationSignal()` and the stop is orderly instead of a kill mid-request.
    public static func blockTerminationSignals() {
        var set = terminationSignals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits for SIGINT or SIGTERM and returns which one arrived.
    @discardableResult
    public static func waitForTerminationSignal() -> Int32 {
        var set = terminationSignals()
        var signal: Int32 = 0
        while sigwait(&set, &signal) != 0 {}
        return signal
    }

    private static func terminationSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
