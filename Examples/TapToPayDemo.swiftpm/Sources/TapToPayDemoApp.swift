import SwiftUI

/// A merchant app written from the TapOnMobile SDK's flow, running against TapSandbox: the same
/// calls as with Worldline's SDK, with `import TapOnMobileSandbox` instead of `import TapOnMobileSDK`.
@main
@MainActor  // as iOS 18's `App` is; the iOS 17 SDK's is not
struct TapToPayDemoApp: App {
    @StateObject private var store = DemoStore()
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            ContentView()
                .environmentObject(store)
                .task { await store.start() }
        }
        .onChange(of: scenePhase) { _, phase in
            guard phase != .inactive else { return }
            Task { await store.sceneChanged(active: phase == .active) }
        }
    }
}
