// swift-tools-version: 6.0

// TapToPayDemo: a merchant app on the sandbox's TapOnMobile SDK, as an app package that Xcode 16
// (and Swift Playgrounds) opens and runs. Its one product is an iOS application, a product type only
// Apple's tools know (AppleProductTypes): elsewhere the manifest still loads, without the app.
import PackageDescription

#if canImport(AppleProductTypes)
import AppleProductTypes

let products: [Product] = [
    .iOSApplication(
        name: "TapToPayDemo",
        targets: ["AppModule"],
        bundleIdentifier: "dev.tapsandbox.TapToPayDemo",
        displayVersion: "1.0",
        bundleVersion: "1",
        appIcon: .placeholder(icon: .coins),
        accentColor: .presetColor(.indigo),
        supportedDeviceFamilies: [.phone],
        supportedInterfaceOrientations: [.portrait],
        capabilities: [
            // Info.plist NSAppTransportSecurity/NSAllowsLocalNetworking: plain HTTP to the sandbox
            // on 127.0.0.1 (the Simulator) or on the Mac's LAN address (an iPhone).
            .appTransportSecurity(configuration: .init(allowsLocalNetworking: true)),
            // Info.plist NSLocalNetworkUsageDescription: an iPhone asks before it talks to the LAN.
            .localNetwork(purposeString: "TapToPayDemo talks to the TapSandbox hosts on your Mac."),
        ],
        appCategory: .finance
    ),
]
#else
let products: [Product] = []
#endif

let package = Package(
    name: "TapToPayDemo",
    platforms: [.iOS("18.0")],
    products: products,
    dependencies: [
        // The repository's root package. The name is what the product dependency below refers to,
        // whatever the folder of the clone is called (a path dependency is otherwise known by it).
        .package(name: "TapSandbox", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "AppModule",
            dependencies: [.product(name: "TapOnMobileSandbox", package: "TapSandbox")],
            path: "Sources"
        ),
    ]
)
