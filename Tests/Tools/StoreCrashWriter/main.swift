// store-crash-writer PATH
//
// Writes rows to a Store at PATH forever from four threads, a few per write, and after each
// write returns prints the highest id it wrote on its own line. The threads' writes share
// commits (the store's group commit), so this also checks that a write returns only once its
// commit is durable. Two of the threads write `.committed` (answered after the COMMIT, before the
// sync): a killed process keeps those too, the WAL being written. The SIGKILL durability test
// kills it mid-stream and checks that every id it printed is still in the file.
import Foundation
import SandboxStore

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: store-crash-writer PATH\n".utf8))
    exit(64)  // EX_USAGE
}

let migrations = [
    Migration(version: 1, name: "rows", sql: "CREATE TABLE rows(id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"),
]
let rowsPerTransaction = 5
// Some bulk per row so commits span several pages and the WAL grows and checkpoints.
let filler = String(repeating: "payload-", count: 40)

let store: Store
do {
    store = try Store.open(path: arguments[1], migrations: migrations)
} catch {
    FileHandle.standardError.write(Data("store-crash-writer: \(error)\n".utf8))
    exit(1)
}
for thread in 0..<4 {
    Thread.detachNewThread {
        do {
            while true {
                let highest = try store.write(thread % 2 == 0 ? .synced : .committed) { db in
                    for _ in 0..<rowsPerTransaction {
                        try db.run("INSERT INTO rows(payload) VALUES (?)", [.text(filler)])
                    }
                    return db.lastInsertRowID
                }
                // Printed only after the write returned (its commit done), in one write(2) of a few
                // bytes (atomic on a pipe), so every id the parent reads was committed before it was
                // printed. When the parent goes away the write fails (EPIPE/SIGPIPE) and this process ends.
                FileHandle.standardOutput.write(Data("\(highest)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("store-crash-writer: \(error)\n".utf8))
            exit(1)
        }
    }
}
while true { sleep(60) }
