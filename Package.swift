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
        .library(name: "SandboxTesting", targets: ["SandboxTesting"]),
        .library(name: "SandboxCrypto", targets: ["SandboxCrypto"]),
        .library(name: "SandboxCore", targets: ["SandboxCore"]),
        .library(name: "WebhookSignature", targets: ["WebhookSignature"]),
    ],
    // Every target names each package module it imports, even one a dependency brings along: the
    // build recompiles a target only when a module it names changes, and code compiled against an
    // older layout of a struct (a Router) corrupts memory at run time.
    targets: [
        // C bindings: module maps over Debian's -dev packages (Homebrew's formulae on macOS, where SwiftPM
        // also searches a keg-only formula's pkg-config folder), plus typed shims for variadic APIs.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]),
        // Tests only: glibc's posix_spawn extensions, which the Swift Glibc module leaves out.
        .systemLibrary(name: "CSpawn", path: "Tests/CSpawn"),

        // Platform.
        // CryptoKit and the Security framework on Apple platforms, OpenSSL's libcrypto on Linux: one API.
        .target(name: "SandboxCrypto", dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        // One notion of "now" for hosts and the reader alike.
        .target(name: "SandboxTime"),
        // The one lock box, both sides (NSLock: every Apple deployment target, and Linux).
        .target(name: "LockedValue"),
        // The JSON fast paths, both sides: a tape decoder and a sorted encoder that give Foundation's results.
        .target(name: "FastJSON"),
        // The wire contract, both sides: every model that crosses HTTP (the seed's names), endpoints.json,
        // the wire time. Foundation and FastJSON only: no server module, built for the SDK's platforms too.
        .target(name: "SandboxWire", dependencies: ["FastJSON"]),
        .target(name: "SandboxCore", dependencies: ["SandboxTime", "FastJSON", "SandboxWire"]),
        .target(name: "SandboxStore", dependencies: ["CSQLite", "CPostgres"]),
        .target(name: "SandboxHTTP", dependencies: ["CMicroHTTPD", "SandboxCrypto", "SandboxCore", "SandboxTime", "FastJSON", "SandboxWire"]),
        .target(name: "SandboxHTTPClient", dependencies: ["CCurl"]),
        .target(name: "SandboxControl", dependencies: ["SandboxHTTPClient", "SandboxWire"]),
        .target(name: "SandboxQRCode", dependencies: ["CQREncode"]),
        // Device side: never depends on server code.
        .target(name: "CardPayload", dependencies: ["SandboxCrypto", "FastJSON"]),
        .target(name: "SimulatedReader", dependencies: ["CardPayload", "SandboxCrypto", "SandboxTime", "SandboxWire", "DeviceTransport"]),
        // The device libraries' HTTP: URLSession on Apple platforms, libcurl on Linux (see DeviceTransport).
        .target(name: "DeviceTransport", dependencies: ["SandboxWire", .target(name: "SandboxHTTPClient", condition: .when(platforms: [.linux]))]),
        // UIKit's types the seeds' calls name, for where UIKit is missing.
        .target(name: "DeviceUI"),
        .target(name: "TapOnMobileSandbox", dependencies: ["SimulatedReader", "CardPayload", "SandboxWire", "DeviceTransport", "DeviceUI", "LockedValue"]),
        // MONEI's Tap to Pay SDK (seed 002) over the MONEI host and the same simulated reader.
        .target(name: "MoneiTapToPay", dependencies: ["SimulatedReader", "CardPayload", "SandboxWire", "DeviceTransport", "DeviceUI"]),
        // PagBank's Tap On SDK (seed 004), over the TapOnMobile device on the PagBank host.
        .target(name: "TapOnPartner", dependencies: ["TapOnMobileSandbox", "SimulatedReader", "SandboxWire", "DeviceTransport", "DeviceUI", "LockedValue"]),
        // Geopagos' Payments SDK (seeds 001 and 003) and its Apple Tap to Pay reader, over the Geopagos host.
        .target(name: "Payments", dependencies: ["SimulatedReader", "CardPayload", "SandboxWire", "DeviceTransport", "LockedValue"]),
        // What an app's tests drive a running sandbox with (reset, seeds, snapshots, clocks, faults, the
        // customer, the inbox): device side, over the SDKs' transport.
        .target(name: "SandboxTesting", dependencies: ["SandboxWire", "DeviceTransport"]),
        .target(name: "TapToPayHardware", dependencies: ["Payments", "SimulatedReader", "DeviceUI"]),
        .target(name: "CommandLineSupport", dependencies: ["SandboxCore", "SandboxWire"]),
        .target(name: "WebhookSignature", dependencies: ["SandboxCrypto"]),

        // Services.
        // The environment host's storage: its schema, records and one repository per table family (SQL lives here only).
        .target(name: "HostStorage", dependencies: ["SandboxStore", "SandboxCore", "SandboxWire", "FastJSON"]),
        // The environment host's rules: lifecycle, payments with their state machine, APM, webhooks,
        // MONEI's API, seeds; domain results and ServiceErrors, no SandboxHTTP.
        .target(
            name: "HostRules",
            dependencies: [
                "HostStorage", "SandboxCore", "SandboxStore", "SandboxHTTPClient", "SandboxCrypto", "SandboxQRCode", "CardPayload",
                "WebhookSignature", "SandboxTime", "FastJSON", "SandboxWire",
            ]),
        // The environment host: its routes (one file per surface) turning requests into the rules' calls and their results into responses.
        .target(
            name: "EnvironmentHost",
            dependencies: [
                "HostRules", "HostStorage",
                "SandboxCore", "SandboxStore", "SandboxHTTP", "SandboxHTTPClient", "SandboxCrypto", "SandboxQRCode", "CardPayload",
                "WebhookSignature", "SandboxTime", "FastJSON", "SandboxWire",
            ]),
        .target(name: "PortalSimulator", dependencies: ["SandboxCore", "SandboxHTTP", "SandboxHTTPClient", "SandboxWire", "SandboxControl"]),
        .target(name: "WebhookInbox", dependencies: ["SandboxCore", "SandboxHTTP", "WebhookSignature", "SandboxTime", "SandboxWire"]),
        // The wallet's storage (schema, records, repositories) and rules (the order book, BLIK codes,
        // standing rules, the notifier and the scheduler): neither compiles SandboxHTTP.
        .target(name: "WalletStorage", dependencies: ["SandboxStore", "SandboxTime", "SandboxWire"]),
        .target(
            name: "WalletRules",
            dependencies: [
                "WalletStorage", "SandboxCore", "SandboxStore", "SandboxHTTPClient", "SandboxCrypto", "WebhookSignature", "SandboxTime",
                "FastJSON", "SandboxWire", "LockedValue",
            ]),
        // The wallet simulator: its routes and pages over the rules.
        .target(
            name: "WalletSimulator",
            dependencies: [
                "WalletRules", "WalletStorage",
                "SandboxCore", "SandboxHTTP", "SandboxStore", "SandboxHTTPClient", "SandboxCrypto", "SandboxQRCode", "WebhookSignature",
                "SandboxTime", "FastJSON", "SandboxWire", "LockedValue",
            ]),

        // Every service's command-line options and `sandbox up`, as a library the tests start in-process.
        .target(
            name: "Launcher",
            dependencies: [
                "HostRules", "WalletRules",
                "EnvironmentHost", "PortalSimulator", "WalletSimulator", "WebhookInbox", "CommandLineSupport", "SandboxHTTP",
                "SandboxHTTPClient", "SandboxCore", "CardPayload", "SandboxTime", "SandboxWire", "SandboxCrypto", "SandboxTesting",
                "SandboxControl",
            ]
        ),

        // Executables: argument parsing and one run(configuration:) call each.
        .executableTarget(name: "SandboxHostCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "PortalSimCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "WalletSimCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "WebhookInboxCommand", dependencies: ["Launcher"]),
        .executableTarget(name: "SandboxCommand", dependencies: ["Launcher"]),
        // tapsim's parsing and commands, as a library the tests run in-process; the executable is one call into it.
        .target(
            name: "TapsimCLI",
            dependencies: ["TapOnMobileSandbox", "MoneiTapToPay", "TapOnPartner", "Payments", "TapToPayHardware", "SimulatedReader", "DeviceTransport", "CommandLineSupport", "SandboxWire", "SandboxQRCode"]),
        .executableTarget(name: "TapsimCommand", dependencies: ["TapsimCLI"]),
        .executableTarget(name: "WebhooksCommand", dependencies: ["WebhookSignature", "CommandLineSupport", "SandboxHTTP", "SandboxHTTPClient", "SandboxWire"]),
        .executableTarget(
            name: "bench-load", dependencies: ["CardPayload", "SandboxHTTPClient", "SandboxStore", "SandboxCrypto", "SandboxWire", "HostStorage"],
            path: "bench/Tools/BenchLoad"),

        // Test support and suites.
        // SandboxTestSupport stays off the server modules (device and platform suites use it); what starts a
        // host or the whole sandbox in this process is HostTestSupport.
        .target(
            name: "SandboxTestSupport", dependencies: ["SandboxCore", "SandboxStore", "SandboxHTTP", "SandboxHTTPClient", "SimulatedReader", "CSpawn"],
            path: "Tests/SandboxTestSupport", exclude: ["Browsers/person.py"]),
        .target(
            name: "HostTestSupport",
            dependencies: [
                "SandboxTestSupport", "Launcher", "EnvironmentHost", "WalletSimulator", "WalletRules", "WalletStorage", "WebhookSignature", "SandboxCore", "SandboxHTTP", "SandboxWire",
                "SandboxTime", "SandboxHTTPClient", "TapsimCLI",
            ],
            path: "Tests/HostTestSupport"),
        .executableTarget(name: "store-crash-writer", dependencies: ["SandboxStore"], path: "Tests/Tools/StoreCrashWriter"),
        .testTarget(name: "SandboxTestSupportTests", dependencies: ["SandboxTestSupport"]),
        .testTarget(name: "SandboxCryptoTests", dependencies: ["SandboxCrypto"]),
        .testTarget(name: "FastJSONTests", dependencies: ["FastJSON", "SandboxCore", "SandboxWire", "SandboxTestSupport"]),
        .testTarget(name: "SandboxWireTests", dependencies: ["SandboxWire", "FastJSON"]),
        .testTarget(name: "SandboxCoreTests", dependencies: ["SandboxCore", "SandboxWire", "SandboxTime", "SandboxTestSupport"]),
        .testTarget(name: "SandboxStoreTests", dependencies: ["SandboxStore", "SandboxTestSupport"]),
        .testTarget(name: "SandboxHTTPTests", dependencies: ["SandboxHTTP", "SandboxCore", "SandboxWire", "SandboxTestSupport"]),
        .testTarget(name: "SandboxHTTPClientTests", dependencies: ["SandboxHTTPClient", "SandboxTestSupport"]),
        // The URLSession transport of Apple platforms, run on Linux beside the libcurl one against a real host.
        .testTarget(name: "DeviceTransportTests", dependencies: ["DeviceTransport", "SandboxTestSupport", "HostTestSupport", "SandboxHTTP"]),
        .testTarget(name: "SandboxQRCodeTests", dependencies: ["SandboxQRCode", "SandboxTestSupport"]),
        // Compiles the SDK's Combine publishers (symlinked in) against a stand-in of Combine on Linux.
        .testTarget(
            name: "TapOnMobileSandboxTests",
            dependencies: ["TapOnMobileSandbox", "Launcher", "SandboxHTTP", "SandboxWire", "SandboxTestSupport", "HostTestSupport", "SandboxHTTPClient"],
            swiftSettings: [.define("COMBINE_STAND_IN")]),
        .testTarget(name: "TapsimTests", dependencies: ["TapsimCLI", "SandboxTestSupport", "HostTestSupport", "Launcher", "SandboxHTTPClient"]),
        .testTarget(name: "SimulatedReaderTests", dependencies: ["SimulatedReader", "CardPayload", "SandboxCrypto", "SandboxWire", "SandboxTestSupport"]),
        .testTarget(name: "WebhookSignatureTests", dependencies: ["WebhookSignature", "SandboxCrypto", "SandboxTestSupport"]),
        .testTarget(name: "WebhooksCommandTests", dependencies: ["WebhookSignature", "SandboxHTTP", "SandboxTestSupport"]),
        .testTarget(name: "EnvironmentHostTests", dependencies: ["EnvironmentHost", "HostRules", "HostStorage", "CardPayload", "SandboxCore", "SandboxCrypto", "SandboxHTTP", "SandboxTestSupport"]),
        .testTarget(
            name: "LauncherTests", dependencies: ["Launcher", "CommandLineSupport", "EnvironmentHost", "SandboxHTTP", "SandboxCore", "SandboxWire", "SandboxTestSupport"]),
        .testTarget(name: "BrowserTests", dependencies: ["Launcher", "SandboxCore", "SandboxHTTP", "SandboxTestSupport", "HostTestSupport", "WalletSimulator", "WalletRules", "WalletStorage", "WebhookSignature", "SandboxWire"]),
        .testTarget(
            name: "WalletSimulatorTests",
            dependencies: [
                "WalletSimulator", "WalletRules", "WalletStorage", "SandboxCore", "SandboxHTTP", "SandboxStore", "SandboxWire", "WebhookSignature", "SandboxTime", "SandboxTestSupport",
                "HostTestSupport", "LockedValue",
            ]),
        .testTarget(name: "LoopbackTests", dependencies: ["SandboxTestSupport", "SandboxCore", "SandboxHTTP"]),
        .testTarget(
            name: "ConformanceTests", dependencies: ["SandboxCrypto", "SandboxWire", "SandboxTestSupport", "HostTestSupport"],
            exclude: ["schemathesis-server.py"]),
        .testTarget(name: "LifecycleTests", dependencies: ["Launcher", "SandboxHTTPClient", "SandboxCore", "SandboxHTTP", "SandboxTestSupport", "HostTestSupport"]),
        .testTarget(name: "WebhookDeliveryTests", dependencies: ["Launcher", "EnvironmentHost", "SimulatedReader", "CardPayload", "SandboxHTTPClient", "SandboxHTTP", "SandboxCore", "SandboxTime", "SandboxStore", "WebhookSignature", "SandboxTestSupport", "HostTestSupport"]),
        .testTarget(name: "MoneiHostTests", dependencies: ["Launcher", "EnvironmentHost", "SimulatedReader", "CardPayload", "SandboxHTTPClient", "SandboxHTTP", "SandboxCore", "SandboxCrypto", "WebhookSignature", "SandboxTestSupport", "HostTestSupport"]),
        .testTarget(
            name: "MoneiTapToPayTests",
            dependencies: ["MoneiTapToPay", "SimulatedReader", "SandboxHTTPClient", "SandboxTestSupport", "HostTestSupport", "LockedValue"]),
        // Swift 5 mode: the seed's example is Swift 5 code (a main-actor UIApplication read from a
        // property initializer, as Xcode's Swift 5 mode accepts).
        .testTarget(
            name: "TapOnPartnerTests",
            dependencies: ["TapOnPartner", "TapOnMobileSandbox", "SimulatedReader", "SandboxTestSupport", "HostTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "GeopagosTests",
            dependencies: ["Payments", "TapToPayHardware", "SimulatedReader", "SandboxTestSupport", "HostTestSupport", "LockedValue"]),
        .testTarget(name: "SandboxTestingTests", dependencies: ["SandboxTesting", "SandboxWire", "SandboxTestSupport", "HostTestSupport"]),
        // The sample app's store (Examples/TapToPayDemo.swiftpm/Sources, symlinked in: no SwiftUI) driven
        // from a seed and a snapshot with SandboxTesting, as the app's UI tests do.
        .testTarget(
            name: "TapToPayDemoTests",
            dependencies: ["TapOnMobileSandbox", "SandboxTesting", "SandboxWire", "SandboxTestSupport", "HostTestSupport"]),
        .testTarget(name: "HostPaymentTests", dependencies: ["Launcher", "EnvironmentHost", "HostRules", "HostStorage", "SandboxStore", "SimulatedReader", "CardPayload", "SandboxHTTPClient", "SandboxCore", "SandboxHTTP", "SandboxWire", "SandboxQRCode", "WebhookSignature", "SandboxTestSupport", "HostTestSupport"]),
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
