// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "TapSandbox",
    // The device libraries use Swift 6's Mutex and String(validating:as:) (iOS 18, macOS 15), and
    // MONEI asks for iOS 18.5 or newer: an iOS released in the last 12 months, as the seeds say.
    platforms: [.iOS(.v18), .macOS(.v15)],
    products: [
        .executable(name: "sandbox-host", targets: ["SandboxHostCommand"]),
        .executable(name: "portal-sim", targets: ["PortalSimCommand"]),
        .executable(name: "wallet-sim", targets: ["WalletSimCommand"]),
        .executable(name: "webhook-inbox", targets: ["WebhookInboxCommand"]),
        .executable(name: "sandbox", targets: ["SandboxCommand"]),
        .executable(name: "tapsim", targets: ["TapsimCommand"]),
        .executable(name: "webhooks", targets: ["WebhooksCommand"]),
        .library(name: "TapOnMobileSandbox", targets: ["TapOnMobileSandbox"]),
        .library(name: "MoneiTapToPay", targets: ["MoneiTapToPay"]),
        .library(name: "TapOnPartner", targets: ["TapOnPartner"]),
        .library(name: "Payments", targets: ["Payments"]),
        .library(name: "TapToPayHardware", targets: ["TapToPayHardware"]),
        .library(name: "SandboxCrypto", targets: ["SandboxCrypto"]),
        .library(name: "SandboxCore", targets: ["SandboxCore"]),
        .library(name: "WebhookSignature", targets: ["WebhookSignature"]),
    ],
    // Every target names each package module it imports, even one a dependency brings along: the
    // build recompiles a target only when a module it names changes, and code compiled against an
    // older layout of a struct (a Router) corrupts memory at run time.
    targets: [
        // C bindings: module maps over Debian's -dev packages, plus typed shims for variadic APIs.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Tests only: glibc's posix_spawn extensions, which the Swift Glibc module leaves out.
        .systemLibrary(name: "CSpawn", path: "Tests/CSpawn"),

        // Platform.
        // CryptoKit and the Security framework on Apple platforms, OpenSSL's libcrypto on Linux: one API.
        .target(name: "SandboxCrypto", dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        // One notion of "now" for hosts and the reader alike.
        .target(name: "Clocks"),
        // The JSON fast paths, both sides: a tape decoder and a sorted encoder that give Foundation's results.
        .target(name: "FastJSON"),
        // The wire contract, both sides: every model that crosses HTTP (the seed's names), endpoints.json,
        // the wire time. Foundation and FastJSON only: no server module, built for the SDK's platforms too.
        .target(name: "SandboxWire", dependencies: ["FastJSON"]),
        .target(name: "SandboxCore", dependencies: ["Clocks", "FastJSON", "SandboxWire"]),
        .target(name: "SandboxStore", dependencies: ["CSQLite"]),
        .target(name: "SandboxHTTP", dependencies: ["CMicroHTTPD", "SandboxCrypto", "SandboxCore", "Clocks", "FastJSON", "SandboxWire"]),
        .target(name: "SandboxHTTPClient", dependencies: ["CCurl"]),
        .target(name: "QRCode", dependencies: ["CQREncode"]),
        // Device side: never depends on server code.
        .target(name: "CardPayload", dependencies: ["SandboxCrypto", "FastJSON"]),
        .target(name: "SimulatedReader", dependencies: ["CardPayload", "SandboxCrypto", "Clocks"]),
        // The device libraries' HTTP: URLSession on Apple platforms, libcurl on Linux (see DeviceTransport).
        .target(name: "DeviceTransport", dependencies: [.target(name: "SandboxHTTPClient", condition: .when(platforms: [.linux]))]),
        // UIKit's types the seeds' calls name, for where UIKit is missing.
        .target(name: "DeviceUI"),
        .target(name: "TapOnMobileSandbox", dependencies: ["SimulatedReader", "CardPayload", "SandboxWire", "DeviceTransport", "DeviceUI"]),
        // MONEI's Tap to Pay SDK (seed 002) over the MONEI host and the same simulated reader.
        .target(name: "MoneiTapToPay", dependencies: ["SimulatedReader", "CardPayload", "SandboxWire", "DeviceTransport", "DeviceUI"]),
        // PagBank's Tap On SDK (seed 004), over the TapOnMobile device on the PagBank host.
        .target(name: "TapOnPartner", dependencies: ["TapOnMobileSandbox", "SimulatedReader", "SandboxWire", "DeviceTransport", "DeviceUI"]),
        // Geopagos' Payments SDK (seeds 001 and 003) and its Apple Tap to Pay reader, over the Geopagos host.
        .target(name: "Payments", dependencies: ["SimulatedReader", "CardPayload", "SandboxWire", "DeviceTransport"]),
        .target(name: "TapToPayHardware", dependencies: ["Payments", "SimulatedReader", "DeviceUI"]),
        .target(name: "CommandLineSupport", dependencies: ["SandboxCore", "SandboxWire"]),
        .target(name: "WebhookSignature", dependencies: ["SandboxCrypto"]),

        // Services.
        .target(
            name: "EnvironmentHost",
            dependencies: [
                "SandboxCore", "SandboxStore", "SandboxHTTP", "SandboxHTTPClient", "SandboxCrypto", "QRCode", "CardPayload",
                "WebhookSignature", "Clocks", "FastJSON", "SandboxWire",
            ]),
        .target(name: "PortalSimulator", dependencies: ["SandboxCore", "SandboxHTTP", "SandboxHTTPClient", "SandboxWire"]),
        .target(name: "WebhookInbox", dependencies: ["SandboxCore", "SandboxHTTP", "WebhookSignature", "Clocks", "SandboxWire"]),
        .target(
            name: "WalletSimulator",
            dependencies: [
                "SandboxCore", "SandboxHTTP", "SandboxStore", "SandboxHTTPClient", "SandboxCrypto", "QRCode", "WebhookSignature",
                "Clocks", "FastJSON", "SandboxWire",
            ]),

        // Every service's command-line options and `sandbox up`, as a library the tests start in-process.
        .target(
            name: "Launcher",
            dependencies: [
                "EnvironmentHost", "PortalSimulator", "WalletSimulator", "WebhookInbox", "CommandLineSupport", "SandboxHTTP",
                "SandboxCore", "CardPayload", "Clocks", "SandboxWire", "SandboxCrypto",
            ]
        ),

        // Executables: argument parsing and one run(configuration:) call each.
        .executableTarget(name: "SandboxHostCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "PortalSimCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "WalletSimCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "WebhookInboxCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "SandboxCommand", dependencies: ["Launcher"]),
        .executableTarget(
            name: "TapsimCommand",
            dependencies: ["TapOnMobileSandbox", "MoneiTapToPay", "TapOnPartner", "Payments", "TapToPayHardware", "SimulatedReader", "DeviceTransport", "CommandLineSupport", "SandboxWire", "QRCode"]),
        .executableTarget(name: "WebhooksCommand", dependencies: ["WebhookSignature", "CommandLineSupport", "SandboxHTTP", "SandboxHTTPClient", "SandboxWire"]),
        .executableTarget(name: "bench-load", dependencies: ["CardPayload", "SandboxHTTPClient", "SandboxStore", "SandboxCrypto"], path: "bench/Tools/BenchLoad"),

        // Test support and suites.
        // TestSupport stays off the server modules (device and platform suites use it); what starts a
        // host or the whole sandbox in this process is HostTestSupport.
        .target(
            name: "TestSupport", dependencies: ["SandboxCore", "SandboxStore", "SandboxHTTP", "SandboxHTTPClient", "SimulatedReader", "CSpawn"],
            path: "Tests/TestSupport", exclude: ["Browsers/person.py"]),
        .target(
            name: "HostTestSupport",
            dependencies: [
                "TestSupport", "Launcher", "EnvironmentHost", "WalletSimulator", "WebhookSignature", "SandboxCore", "SandboxHTTP", "SandboxWire",
                "Clocks", "SandboxHTTPClient",
            ],
            path: "Tests/HostTestSupport"),
        .executableTarget(name: "store-crash-writer", dependencies: ["SandboxStore"], path: "Tests/Tools/StoreCrashWriter"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "SandboxCryptoTests", dependencies: ["SandboxCrypto"]),
        .testTarget(name: "FastJSONTests", dependencies: ["FastJSON", "SandboxCore", "SandboxWire", "TestSupport"]),
        .testTarget(name: "SandboxWireTests", dependencies: ["SandboxWire", "FastJSON"]),
        .testTarget(name: "SandboxCoreTests", dependencies: ["SandboxCore", "SandboxWire", "Clocks", "TestSupport"]),
        .testTarget(name: "SandboxStoreTests", dependencies: ["SandboxStore", "TestSupport"]),
        .testTarget(name: "SandboxHTTPTests", dependencies: ["SandboxHTTP", "SandboxCore", "SandboxWire", "TestSupport"]),
        .testTarget(name: "SandboxHTTPClientTests", dependencies: ["SandboxHTTPClient", "TestSupport"]),
        // The URLSession transport of Apple platforms, run on Linux beside the libcurl one against a real host.
        .testTarget(name: "DeviceTransportTests", dependencies: ["DeviceTransport", "TestSupport", "HostTestSupport", "SandboxHTTP"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
        // Compiles the SDK's Combine publishers (symlinked in) against a stand-in of Combine on Linux.
        .testTarget(
            name: "TapOnMobileSandboxTests",
            dependencies: ["TapOnMobileSandbox", "Launcher", "SandboxHTTP", "SandboxWire", "TestSupport", "HostTestSupport", "SandboxHTTPClient"],
            swiftSettings: [.define("COMBINE_STAND_IN")]),
        .testTarget(name: "TapsimTests", dependencies: ["TestSupport", "HostTestSupport", "Launcher", "SandboxHTTPClient"]),
        .testTarget(name: "SimulatedReaderTests", dependencies: ["SimulatedReader", "CardPayload", "SandboxCrypto", "TestSupport"]),
        .testTarget(name: "WebhookSignatureTests", dependencies: ["WebhookSignature", "SandboxCrypto", "TestSupport"]),
        .testTarget(name: "WebhooksCommandTests", dependencies: ["WebhookSignature", "SandboxHTTP", "TestSupport"]),
        .testTarget(name: "EnvironmentHostTests", dependencies: ["EnvironmentHost", "CardPayload", "SandboxCore", "SandboxCrypto", "SandboxHTTP", "TestSupport"]),
        .testTarget(
            name: "LauncherTests", dependencies: ["Launcher", "EnvironmentHost", "SandboxHTTP", "SandboxCore", "SandboxWire", "TestSupport"]),
        .testTarget(name: "BrowserTests", dependencies: ["Launcher", "SandboxCore", "SandboxHTTP", "TestSupport", "HostTestSupport", "WalletSimulator", "WebhookSignature", "SandboxWire"]),
        .testTarget(
            name: "WalletSimulatorTests",
            dependencies: [
                "WalletSimulator", "SandboxCore", "SandboxHTTP", "SandboxStore", "SandboxWire", "WebhookSignature", "Clocks", "TestSupport",
                "HostTestSupport",
            ]),
        .testTarget(name: "LoopbackTests", dependencies: ["TestSupport", "SandboxCore", "SandboxHTTP"]),
        .testTarget(name: "ConformanceTests", dependencies: ["SandboxCrypto", "SandboxWire", "TestSupport", "HostTestSupport"]),
        .testTarget(name: "LifecycleTests", dependencies: ["Launcher", "SandboxHTTPClient", "SandboxCore", "SandboxHTTP", "TestSupport", "HostTestSupport"]),
        .testTarget(name: "WebhookDeliveryTests", dependencies: ["Launcher", "EnvironmentHost", "SimulatedReader", "CardPayload", "SandboxHTTPClient", "SandboxHTTP", "SandboxCore", "Clocks", "WebhookSignature", "TestSupport", "HostTestSupport"]),
        .testTarget(name: "MoneiHostTests", dependencies: ["Launcher", "EnvironmentHost", "SimulatedReader", "CardPayload", "SandboxHTTPClient", "SandboxHTTP", "SandboxCore", "SandboxCrypto", "WebhookSignature", "TestSupport", "HostTestSupport"]),
        .testTarget(
            name: "MoneiTapToPayTests",
            dependencies: ["MoneiTapToPay", "SimulatedReader", "SandboxHTTPClient", "TestSupport", "HostTestSupport"]),
        // Swift 5 mode: the seed's example is Swift 5 code (a main-actor UIApplication read from a
        // property initializer, as Xcode's Swift 5 mode accepts).
        .testTarget(
            name: "TapOnPartnerTests",
            dependencies: ["TapOnPartner", "TapOnMobileSandbox", "SimulatedReader", "TestSupport", "HostTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "GeopagosTests",
            dependencies: ["Payments", "TapToPayHardware", "SimulatedReader", "TestSupport", "HostTestSupport"]),
        .testTarget(name: "PaymentTests", dependencies: ["Launcher", "EnvironmentHost", "SandboxStore", "SimulatedReader", "CardPayload", "SandboxHTTPClient", "SandboxCore", "SandboxHTTP", "SandboxWire", "QRCode", "WebhookSignature", "TestSupport", "HostTestSupport"]),
    ]
)

// One set of settings for every Swift target: Swift 6 mode, complete concurrency checking.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
    ]
}

// The sample app's sources (Examples/TapToPayDemo.swiftpm) as a library of this package, only when
// TAPSANDBOX_EXAMPLE_APP is set: `make check-ios` type-checks them for iOS with ios-typecheck, which
// checks this package's own library products and not another package's. SwiftUI: never built here.
if Context.environment["TAPSANDBOX_EXAMPLE_APP"] != nil {
    package.targets.append(
        .target(name: "TapToPayDemoCheck", dependencies: ["TapOnMobileSandbox"], path: "Examples/TapToPayDemo.swiftpm/Sources"))
    package.products.append(.library(name: "TapToPayDemoCheck", targets: ["TapToPayDemoCheck"]))
}
