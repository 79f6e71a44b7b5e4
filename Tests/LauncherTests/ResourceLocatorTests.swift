import CommandLineSupport
import Foundation
import SandboxTestSupport
import Testing

/// Where an executable finds `sandbox-data`, `web` and `openapi` when no option names them.
@Suite struct ResourceLocatorTests {
    let root = URL(fileURLWithPath: "/opt/tapsandbox")
    let work = URL(fileURLWithPath: "/home/dev/app")

    @Test("beside the executable and up to four folders above, the install prefix, TAPSANDBOX_HOME, the working directory, in that order")
    func order() {
        let places = ResourceLocator.candidates(
            "sandbox-data", executable: root.appendingPathComponent("bin/sandbox"), environment: ["TAPSANDBOX_HOME": "/srv/sandbox"],
            workingDirectory: work
        ).map(\.path)
        #expect(
            places == [
                "/opt/tapsandbox/bin/sandbox-data", "/opt/tapsandbox/sandbox-data", "/opt/sandbox-data", "/sandbox-data",
                "/opt/tapsandbox/share/tapsandbox/sandbox-data", "/srv/sandbox/sandbox-data", "/home/dev/app/sandbox-data",
            ])
    }

    @Test("a symlinked executable looks beside its target: a link in ~/bin finds the checkout of .build/release")
    func followsSymlinks() throws {
        let folder = TemporaryDirectory()
        let checkout = folder.file("checkout")
        let release = checkout.appendingPathComponent(".build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: checkout.appendingPathComponent("sandbox-data"), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: release.appendingPathComponent("sandbox").path, contents: Data())
        try FileManager.default.createDirectory(at: folder.file("bin"), withIntermediateDirectories: true)
        let link = folder.file("bin/sandbox")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: release.appendingPathComponent("sandbox"))

        let places = ResourceLocator.candidates("sandbox-data", executable: link, environment: [:], workingDirectory: work)
        let found = places.first { FileManager.default.fileExists(atPath: $0.path) }
        #expect(found?.resolvingSymlinksInPath().path == checkout.appendingPathComponent("sandbox-data").resolvingSymlinksInPath().path, "\(places)")
    }

    @Test("the error lists every place and names the option and the variable")
    func missingNamesEveryPlace() {
        let places = ResourceLocator.candidates("web", executable: nil, environment: [:], workingDirectory: work)
        let message = ResourceLocator.missing("web", looked: places, environment: [:])
        #expect(
            message == """
                cannot find the 'web' folder; looked in:
                  /home/dev/app/web
                Pass --web DIR, or set TAPSANDBOX_HOME to the folder that holds sandbox-data, web and openapi (TAPSANDBOX_HOME is not set).
                """)
    }
}

/// One running service per database: the lock a second one meets, and what it says.
@Suite struct ServiceLockTests {
    @Test("a second holder is refused with the first one's command, PID and ports; after release it gets the lock")
    func secondHolderIsRefused() throws {
        let folder = TemporaryDirectory()
        let file = folder.file("eu.lock")
        let first = try ServiceLock.acquire(file, holder: .init(pid: 4242, command: "sandbox up", ports: []))
        first.update(ports: Array(8100...8114))
        #expect(ServiceLock.isHeld(file) == true)
        #expect(throws: UsageError(
            "sandbox up (PID 4242, ports 8100–8114) is already running on \(folder.url.path) (it holds eu.lock); stop it, or give this one another --data-dir"
        )) {
            try ServiceLock.acquire(file, holder: .init(command: "sandbox-host --env EU", ports: [8100]))
        }
        first.release()
        #expect(ServiceLock.isHeld(file) == false)
        let second = try ServiceLock.acquire(file, holder: .init(pid: 7, command: "sandbox-host --env EU", ports: [9000]))
        #expect(ServiceLock.holder(file) == .init(pid: 7, command: "sandbox-host --env EU", ports: [9000]))
        second.release()
        #expect(ServiceLock.isHeld(folder.file("none.lock")) == nil)
    }
}
