import Foundation

/// Where the device libraries keep their files, and find `sandbox up`'s `endpoints.json`, when the
/// app names no folder.
///
/// An iOS app starts in `/`, which it cannot write, so on Apple platforms a device's state goes
/// under the app's Application Support folder, as an SDK's own files do. On Linux (tapsim, the
/// tests) it stays beside the sandbox's state, in `.sandbox` of the working directory.
///
/// ```swift
/// DeviceStorage.root                      // …/Library/Application Support/TapSandbox on iOS
/// DeviceStorage.folder("device")          // where TapOnMobile keeps device.json
/// DeviceStorage.endpointsFile             // $TAPSANDBOX_ENDPOINTS, else ./.sandbox/endpoints.json
/// ```
public enum DeviceStorage {
    /// The folder every default device folder is in.
    ///
    /// Apple platforms: `Application Support/TapSandbox` in the app's container (the user's
    /// `~/Library/Application Support/TapSandbox` for a command-line tool on a Mac). Elsewhere:
    /// `.sandbox` in the working directory.
    public static var root: URL {
        #if canImport(Darwin)
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return support.appendingPathComponent("TapSandbox", isDirectory: true)
        #else
        return workingDirectory.appendingPathComponent(".sandbox", isDirectory: true)
        #endif
    }

    /// A folder under ``root``, for one device library.
    ///
    /// - Parameter name: A relative path such as `device` or `devices/PAGBANK-tapon`.
    /// - Returns: `root/name`; nothing is created until the library writes there.
    public static func folder(_ name: String) -> URL {
        root.appendingPathComponent(name, isDirectory: true)
    }

    /// The `endpoints.json` a library reads the hosts' addresses from when it exists.
    ///
    /// `$TAPSANDBOX_ENDPOINTS` when set: an app in the iOS Simulator reads the Mac's files, so an
    /// Xcode scheme's environment variable can point it at the checkout's `.sandbox/endpoints.json`.
    /// Else `.sandbox/endpoints.json` in the working directory, where `sandbox up` writes it. In an
    /// iOS app that file does not exist, and the libraries use `sandbox up`'s default ports on
    /// 127.0.0.1, which the Simulator shares with the Mac.
    public static var endpointsFile: URL {
        endpointsFile(environment: ProcessInfo.processInfo.environment)
    }

    /// ``endpointsFile`` as `environment` decides it.
    ///
    /// - Parameter environment: The process's environment variables, or others.
    /// - Returns: `TAPSANDBOX_ENDPOINTS` as a file URL when set and not empty, else `.sandbox/endpoints.json`
    ///   in the working directory.
    public static func endpointsFile(environment: [String: String]) -> URL {
        if let path = environment["TAPSANDBOX_ENDPOINTS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return workingDirectory.appendingPathComponent(".sandbox/endpoints.json")
    }

    private static var workingDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }
}
