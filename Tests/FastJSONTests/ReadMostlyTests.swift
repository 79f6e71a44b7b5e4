import Foundation
import FastJSON
import Testing

@Suite("ReadMostly")
struct ReadMostlyTests {
    @Test("readers on many threads never see a write half done, and every write is kept")
    func concurrentReadsAndWrites() async throws {
        // Each write keeps the two halves equal; a reader that saw them differ saw a torn write.
        let pair = ReadMostly((left: 0, right: 0))
        let torn = ReadMostly(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 { pair.write { $0.left += 1; $0.right += 1 } }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<5_000 where pair.read({ $0.left != $0.right }) { torn.write { $0 += 1 } }
                }
            }
        }
        #expect(torn.read { $0 } == 0)
        #expect(pair.read { $0.left } == 8_000)
    }
}
