import Foundation

/// Loads a page in headless Chromium, lets its scripts run, and returns the DOM they left.
///
/// `--virtual-time-budget` lets the page's fetches and timers settle before the dump, so
/// the test sees what a person would see once the page has loaded.
public enum HeadlessChromium {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "chromium is not installed; scripts/setup installs it" }
    }

    /// `$CHROMIUM` (which `make test` sets from scripts/chromium: Google Chrome or Chromium on a
    /// Mac), else Debian's chromium.
    public static var executable: URL? {
        let named = ProcessInfo.processInfo.environment["CHROMIUM"].map { [$0] } ?? []
        return (named + ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]).map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The serialized DOM of `url` after its scripts ran.
    public static func dom(of url: String, settleMilliseconds: Int = 5000) throws -> String {
        try run(["--dump-dom", "--virtual-time-budget=\(settleMilliseconds)", url])
    }

    /// Writes a PNG of the page (for a person to look at while debugging).
    public static func screenshot(of url: String, to file: URL, width: Int = 1000, height: Int = 700) throws {
        _ = try run(["--screenshot=\(file.path)", "--window-size=\(width),\(height)", "--virtual-time-budget=5000", url])
    }

    private static func run(_ arguments: [String]) throws -> String {
        guard let executable else { throw Missing() }
        let profile = TemporaryDirectory()
        return try SpawnedProcess.run(
            executable,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(profile.url.path)",
            ] + arguments, in: profile.url, timeout: 120
        ).stdout
    }
}
