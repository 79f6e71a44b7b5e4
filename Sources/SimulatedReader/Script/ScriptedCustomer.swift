import DeviceTransport
import Foundation

/// The customer a test queued on the sandbox for a terminal's next card screen (`POST
/// /_sandbox/customer/{terminalId}`, `TestSandbox.queueCustomer`): a UI test runs in another
/// process than the app, so it cannot hand the reader a script; every SDK's simulated card screen
/// takes the next turn here first, then plays the app's own script.
///
/// ```swift
/// let script = await ScriptedCustomer.next(host: hostURL, terminalId: "EU-T0101", transport: transport)
/// if let script = script ?? appScript { await reader.present(script) }
/// ```
public enum ScriptedCustomer {
    /// Takes the next turn queued for `terminalId` on the host at `host` (`POST
    /// /_sandbox/customer/{terminalId}/next`).
    ///
    /// - Returns: nil when none is queued, or when the host cannot say (an older host, no answer,
    ///   an answer that does not read as a turn): the app's own script plays then.
    public static func next(host: URL, terminalId: String, transport: DeviceTransport) async -> CardScript? {
        var base = host.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/_sandbox/customer/" + DeviceTransport.encode(terminalId) + "/next") else { return nil }
        guard case .answer(let status, let body) = await transport.send("POST", url), (200..<300).contains(status) else { return nil }
        return try? CardScript(takenTurn: body)
    }
}
