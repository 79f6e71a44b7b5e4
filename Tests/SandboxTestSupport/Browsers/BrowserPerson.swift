import Foundation

/// A person at a real headless Chromium (Debian's, driven by Playwright for Python): types into
/// fields by their labels, presses buttons by their names and reads what the page shows.
///
/// ```swift
/// let seen = try BrowserPerson.run([
///     .goto(portal + "/register.html"), .fill("Code", code), .click("Find registration"), .read("#device-model"),
/// ])
/// #expect(seen == ["iPhone15,2"])
/// ```
public enum BrowserPerson {
    /// One thing the person does; `read`, `readAll` and `readValue` add what they saw to the result.
    public enum Step: Sendable {
        case goto(String)
        case fill(String, String)
        case select(String, String)
        case click(String)
        /// Tick the checkbox labelled `label`.
        case check(String)
        /// Follow the link whose text is `name`.
        case clickLink(String)
        /// Press the button called `name` inside the element `css` matches (a table row).
        case clickIn(String, name: String)
        case read(String)
        case readAll(String)
        /// What the field labelled so holds.
        case readValue(String)
        case waitText(String, contains: String)
        /// Accept the page's next `confirm()` dialog.
        case acceptDialog
        /// Dismiss the page's next `confirm()` dialog.
        case dismissDialog
        /// A PNG of what the element `css` matches shows, written to `file` (a QR code to scan).
        case screenshot(String, to: URL)
        /// The window's size from now on (a phone: 390 × 844).
        case viewport(width: Int, height: Int)
        /// Reads how many pixels the page is wider than the window (0: no horizontal scrolling).
        case overflow
        /// Reads whether the first element `css` matches is shown wholly inside the window.
        case inViewport(String)
        /// A picture of the whole page, written to `file` (PNG, or JPEG when it ends in `.jpg`).
        case screenshotPage(to: URL)

        var json: [String: Any] {
            switch self {
            case .goto(let url): ["goto": url]
            case .fill(let label, let text): ["fill": label, "text": text]
            case .select(let label, let value): ["select": label, "value": value]
            case .click(let name): ["click": name]
            case .check(let label): ["check": label]
            case .clickLink(let name): ["clickLink": name]
            case .clickIn(let css, let name): ["clickIn": css, "name": name]
            case .read(let css): ["read": css]
            case .readAll(let css): ["readAll": css]
            case .readValue(let label): ["readValue": label]
            case .waitText(let css, let text): ["waitText": css, "contains": text]
            case .acceptDialog: ["accept": true]
            case .dismissDialog: ["dismiss": true]
            case .screenshot(let css, let file): ["screenshot": css, "path": file.path]
            case .viewport(let width, let height): ["viewport": [width, height]]
            case .overflow: ["overflow": true]
            case .inViewport(let css): ["inViewport": css]
            case .screenshotPage(let file): ["screenshotPage": file.path]
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the `read` steps saw (a `readAll` gives a `[String]`), in order; throws with the step
    /// that failed and why.
    @discardableResult
    ///
    /// - Parameter resolving: names the browser's resolver answers with the given address (a
    ///   DNS-rebinding name that points at 127.0.0.1), as Chromium's `--host-resolver-rules` does.
    public static func run(_ steps: [Step], timeoutMilliseconds: Int = 10_000, resolving: [String: String] = [:]) throws -> [Any] {
        guard let chromium = HeadlessChromium.executable else { throw HeadlessChromium.Missing() }
        let request: [String: Any] = [
            "steps": steps.map(\.json), "timeoutMilliseconds": timeoutMilliseconds, "chromium": chromium.path, "resolve": resolving,
        ]
        let answer = try people().exchange(request, lines: 1, seconds: 180)
        guard answer.complete, let line = answer.lines.first,
            let result = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        else { throw Failure(description: "person.py answered no result within 180 s: \(answer.lines)") }
        if let error = result["error"] as? String {
            let index = result["step"] as? Int ?? -1
            let step = steps.indices.contains(index) ? "\(steps[index])" : "?"
            throw Failure(description: "step \(index) (\(step)) failed: \(error)")
        }
        return result["reads"] as? [Any] ?? []
    }

    /// The test process's one `person.py --serve`: one Playwright driver and one Chromium, a new
    /// browser context (its own cookies, storage and pages) for each ``run(_:timeoutMilliseconds:resolving:)``.
    private static func people() throws -> LineServer { try started.get() }

    private static let started: Result<LineServer, HarnessError> = {
        do {
            let python = try onPath("python3") ?? { throw HarnessError("python3 is needed; run scripts/setup") }()
            let script = Paths.repository.appendingPathComponent("Tests/SandboxTestSupport/Browsers/person.py")
            var environment = childEnvironment()
            environment["NO_PROXY"] = "127.0.0.1,localhost"
            environment["no_proxy"] = "127.0.0.1,localhost"
            return .success(try LineServer(python, [script.path, "--serve"], name: "person.py", environment: environment))
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    /// Whether Playwright for Python is installed (scripts/setup installs it).
    public static var isAvailable: Bool {
        (try? SpawnedProcess.run("python3", ["-c", "import playwright"]).status) == 0
    }
}
