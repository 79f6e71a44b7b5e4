import FastJSON
import Foundation
import SandboxWire
import Testing

/// `endpoints.json` as `sandbox up` writes it and as `tapsim`, `webhooks`, `portal-sim` and the SDK read it.
@Suite struct EndpointsFileTests {
    let sample = EndpointsFile(
        portal: "http://127.0.0.1:8109", wallet: "http://127.0.0.1:8110", webhooks: "http://127.0.0.1:8111",
        environments: ["EU": "http://127.0.0.1:8100", "ANZ": "http://127.0.0.1:8101"])

    func temporaryFile(_ text: String? = nil) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("endpoints-\(UUID().uuidString).json")
        if let text { try Data(text.utf8).write(to: file) }
        return file
    }

    /// The bytes are the services' JSON encoding (sorted keys, slashes as they are), as the file was before it had a type.
    @Test func writesTheServicesEncoding() throws {
        let file = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        try sample.write(to: file)
        let written = try Data(contentsOf: file)
        #expect(Array(written) == (try SortedJSONEncoder.encode(sample)))
        #expect(
            String(decoding: written, as: UTF8.self)
                == #"{"environments":{"ANZ":"http://127.0.0.1:8101","EU":"http://127.0.0.1:8100"},"portal":"http://127.0.0.1:8109","wallet":"http://127.0.0.1:8110","webhooks":"http://127.0.0.1:8111"}"#)
        #expect(try EndpointsFile.load(from: file) == sample)
    }

    /// A reader needs only the hosts: a file with just `environments` loads, a service URL of another type reads as absent.
    @Test func onlyTheEnvironmentsAreRequired() throws {
        let file = try temporaryFile(#"{"environments":{"EU":"http://127.0.0.1:8100"},"portal":42}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let loaded = try EndpointsFile.load(from: file)
        #expect(loaded.environments == ["EU": "http://127.0.0.1:8100"])
        #expect(loaded.portal == nil && loaded.wallet == nil && loaded.webhooks == nil)
        #expect(loaded.region(matching: "eu") == "EU")
        #expect(loaded.region(matching: "ANZ") == nil)
    }

    @Test(arguments: ["", "[]", #"{"portal":"http://127.0.0.1:8109"}"#, #"{"environments":{"EU":8100}}"#, "not json"])
    func refusesWhatIsNotAnEndpointsFile(_ text: String) throws {
        let file = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: EndpointsFile.LoadError.invalid(file)) { try EndpointsFile.load(from: file) }
        #expect(EndpointsFile.LoadError.invalid(file).description == "\(file.path) is not an endpoints file (written by 'sandbox up')")
    }

    @Test func saysWhenThereIsNoFile() throws {
        let file = try temporaryFile()
        #expect(throws: EndpointsFile.LoadError.unreadable(file)) { try EndpointsFile.load(from: file) }
        #expect(EndpointsFile.LoadError.unreadable(file).description == "cannot read \(file.path)")
    }
}
