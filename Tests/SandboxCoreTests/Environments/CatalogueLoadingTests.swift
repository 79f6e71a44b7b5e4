import Foundation
import SandboxCore
import SandboxTestSupport
import Testing

/// Reading the file itself: a missing file and a broken file say which file.
@Suite struct CatalogueLoadingTests {
    @Test func refusesAMissingFileByName() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("absent").appendingPathComponent("environments.json")
        #expect(throws: CatalogueError(
            code: .unreadable, file: "environments.json", path: "(root)",
            reason: "cannot read \(url.path): no such file")) {
            try EnvironmentCatalogue.load(contentsOf: url)
        }
    }

    @Test("a file the system cannot read says the system's reason, not Foundation's generic one")
    func saysTheSystemsReason() throws {
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        // A folder where the file should be: read(2) fails with EISDIR.
        let url = directory.file("environments.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let error = #expect(throws: CatalogueError.self) { try EnvironmentCatalogue.load(contentsOf: url) }
        #expect(error?.code == .unreadable)
        #expect(error?.description == "environments.json: (root): cannot read \(url.path): \(String(cString: strerror(EISDIR)))")
    }

    @Test func namesTheLoadedFileInTheMessage() throws {
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let url = directory.file("my-regions.json")
        try Data(#"{"regions": []}"#.utf8).write(to: url)
        let error = #expect(throws: CatalogueError.self) { try EnvironmentCatalogue.load(contentsOf: url) }
        #expect(error?.description == "my-regions.json: regions: must list at least one region")
        #expect(error?.code == .invalid)
    }
}
