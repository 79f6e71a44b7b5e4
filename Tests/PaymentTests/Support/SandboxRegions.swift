import HostTestSupport
import SandboxTestSupport

// Most of these tests use one region: the sandbox they start runs only the hosts they name (EU by
// default; nil: every region), which saves starting, migrating and stopping a dozen hosts a test.

/// HostTestSupport's `withSandbox`, with only `regions`' hosts.
func withSandbox<T>(
    directory: TemporaryDirectory = TemporaryDirectory(), regions: [String]? = ["EU"], _ body: (InProcessSandbox) throws -> T
) throws -> T {
    try HostTestSupport.withSandbox(directory: directory, regions: regions, body)
}

/// HostTestSupport's `withSandbox` for an asynchronous test, with only `regions`' hosts.
func withSandbox<T>(
    directory: TemporaryDirectory = TemporaryDirectory(), regions: [String]? = ["EU"], _ body: (InProcessSandbox) async throws -> T
) async throws -> T {
    try await HostTestSupport.withSandbox(directory: directory, regions: regions, body)
}
